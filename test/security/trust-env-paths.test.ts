/**
 * PYTHONPATH / NODE_PATH / NODE_OPTIONS set on a hook's line (or in a script it runs) add
 * places imports are searched (issue 26, src/hooks/env-paths.ts): a folder they add inside the
 * project is protected (a module written there loads in front of the one found now), a file
 * `--require` loads is pinned and protected, and what they add outside the project is named as
 * not pinned. Through `keel hooks trust` and `keel run`.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { keel, worldPerTest } from "../agent/harness.js";
import { keelHook, put, writeAfterTrust, writeCaseWorld } from "./trust-world.js";

const newWorld = worldPerTest();
const EVIL = "require('child_process').execSync('touch /tmp/keel-owned')\n";

const CASES: { name: string; hook: string; before: [string, string][]; write: string }[] = [
  {
    name: "PYTHONPATH=lib python3 tools/check.py → import helper: lib/helper.py",
    hook: "PYTHONPATH=lib python3 tools/check.py",
    before: [["tools/check.py", "import helper\n"]],
    write: "lib/helper.py",
  },
  {
    name: "PYTHONPATH=vendor:lib: a package vendor/helper/__init__.py",
    hook: "PYTHONPATH=vendor:lib python3 tools/check.py",
    before: [["tools/check.py", "import helper\n"]],
    write: "vendor/helper/__init__.py",
  },
  {
    name: "PYTHONPATH=. python3 tools/check.py → import yaml: a top-level yaml.py",
    hook: "PYTHONPATH=. python3 tools/check.py",
    before: [["tools/check.py", "import yaml\n"]],
    write: "yaml.py",
  },
  {
    name: "NODE_PATH=vendor node tools/c.js → require('dep'): vendor/dep/index.js",
    hook: "NODE_PATH=vendor node tools/c.js",
    before: [["tools/c.js", "try { require('dep'); } catch {}\n"]],
    write: "vendor/dep/index.js",
  },
  {
    name: "NODE_OPTIONS='--require ./setup.cjs' node tools/c.js: setup.cjs not there yet",
    hook: "NODE_OPTIONS='--require ./setup.cjs' node tools/c.js",
    before: [["tools/c.js", "console.log(1)\n"]],
    write: "setup.cjs",
  },
  {
    name: "npm test → package.json script `PYTHONPATH=src python3 run.py`: src/x.py",
    hook: "npm test",
    before: [
      ["package.json", JSON.stringify({ scripts: { test: "PYTHONPATH=src python3 run.py" } })],
      ["run.py", "import x\n"],
    ],
    write: "src/x.py",
  },
];

describe("import paths a hook's variables add are protected", () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const world = await writeCaseWorld(newWorld, c, EVIL);
      const { status } = await writeAfterTrust(world);
      expect(status).toBe("blocked");
      expect(existsSync(join(world.project, c.write))).toBe(false);
    });
  }

  it("a folder outside the project is named as not pinned", async () => {
    const world = await newWorld(script(reply().text("ok")));
    put(world, "tools/check.py", "import helper\n");
    keelHook(world, "PYTHONPATH=/opt/shared python3 tools/check.py");
    const t = await keel(world, ["hooks", "trust", "--cwd", world.project]);
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toMatch(/cannot be pinned: PYTHONPATH=\/opt\/shared \(.*outside the project/);
  });

  it("an unrelated write is still accepted", async () => {
    const world = await newWorld(
      script(reply().tool("write_file", { path: "docs/a.md", content: "x\n" }), reply().text("ok")),
    );
    put(world, "tools/check.py", "import helper\n");
    keelHook(world, "PYTHONPATH=lib python3 tools/check.py");
    const { status } = await writeAfterTrust(world);
    expect(status).not.toBe("blocked");
  });
});
