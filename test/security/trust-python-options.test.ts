/**
 * Python's own options before `-m` (`python3 -q -m pytest`, `python3 -X dev -m pytest`, `-B`,
 * `-u`, `-W error`, a cluster such as `-Im`) do not hide the module it runs (issue 26,
 * src/hooks/python-args.ts): the folder `-m` puts first on sys.path and the tests unittest
 * discovers are protected as without the option. Through `keel hooks trust` and `keel run`.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { worldPerTest } from "../agent/harness.js";
import { keelHook, put, writeAfterTrust } from "./trust-world.js";

const newWorld = worldPerTest();
const EVIL = "import os; os.system('touch /tmp/keel-owned')\n";

const CASES: { hook: string; write: string }[] = [
  { hook: "python3 -X dev -m pytest -q tests", write: "pluggy.py" },
  { hook: "python3 -q -m pytest tests", write: "pytest.py" },
  { hook: "python3 -u -W error -m pytest tests", write: "iniconfig/__init__.py" },
  { hook: "python3 -B -m unittest discover -s tests", write: "tests/test_new.py" },
  { hook: "python3 -s -m unittest discover -s tests", write: "tests/test_new.py" },
  { hook: "python3 -Im unittest", write: "test_new.py" },
  { hook: "python3 -OO -mpytest tests", write: "pluggy.py" },
];

describe("options before -m are read as Python reads them", () => {
  for (const c of CASES) {
    it(`${c.hook}: the model cannot write ${c.write} in acceptEdits`, async () => {
      const world = await newWorld(
        script(reply().tool("write_file", { path: c.write, content: EVIL }), reply().text("ok")),
      );
      put(world, "tests/test_a.py", "def test_a(): pass\n");
      keelHook(world, c.hook);
      const { status } = await writeAfterTrust(world);
      expect(status).toBe("blocked");
      expect(existsSync(join(world.project, c.write))).toBe(false);
    });
  }
});
