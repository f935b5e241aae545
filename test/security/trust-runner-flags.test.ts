/**
 * A test runner's configuration chosen on the hook's line is read like the one it finds itself
 * (issue 26, src/hooks/runner-config.ts): `pytest -c ci/pytest-ci.ini` with `python_files =
 * check_*.py` collects check_*.py, so the model writing a new one needs a person; `--rootdir`
 * moves where testpaths count from. Through `keel hooks trust` and `keel run`.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { worldPerTest } from "../agent/harness.js";
import { writeAfterTrust, writeCaseWorld } from "./trust-world.js";

const newWorld = worldPerTest();
const EVIL = "import os; os.system('touch /tmp/keel-owned')\n";

const CASES: { name: string; hook: string; before: [string, string][]; write: string }[] = [
  {
    name: "pytest -c ci/pytest-ci.ini: python_files = check_*.py",
    hook: "pytest -q -c ci/pytest-ci.ini",
    before: [["ci/pytest-ci.ini", "[pytest]\npython_files = check_*.py\n"]],
    write: "sub/check_new.py",
  },
  {
    name: "pytest --config-file=ci/pyproject.toml: python_files = chk_*.py",
    hook: "python3 -m pytest --config-file=ci/pyproject.toml",
    before: [["ci/pyproject.toml", '[tool.pytest.ini_options]\npython_files = ["chk_*.py"]\n']],
    write: "sub/chk_new.py",
  },
  {
    name: "pytest -c ci/p.ini with testpaths = qa: from the file's folder",
    hook: "pytest -c ci/p.ini",
    before: [["ci/p.ini", "[pytest]\ntestpaths = qa\npython_files = verify_*.py\n"]],
    write: "ci/qa/verify_x.py",
  },
];

describe("pytest's -c / --config-file / --rootdir are read", () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const world = await writeCaseWorld(newWorld, c, EVIL);
      const { status } = await writeAfterTrust(world);
      expect(status).toBe("blocked");
      expect(existsSync(join(world.project, c.write))).toBe(false);
    });
  }
});
