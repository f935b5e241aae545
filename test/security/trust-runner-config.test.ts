/**
 * Trust reads the project's own test-runner configuration where it is declarative (issue 26,
 * src/hooks/runner-config.ts): pytest's testpaths / python_files in pytest.ini, pyproject.toml,
 * setup.cfg and tox.ini; jest's testMatch / testRegex / roots in package.json or
 * jest.config.json. The files they match now are pinned, and a new one the model writes in
 * acceptEdits needs a person (headless: blocked). A vitest config is code: its quoted patterns
 * are protected and the listing says what it computes cannot be pinned; in a subfolder the
 * whole folder is protected. Through `keel hooks trust` and `keel run` against the simulator.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { keel, worldPerTest } from "../agent/harness.js";
import { keelHook, put, writeCaseWorld } from "./trust-world.js";

const newWorld = worldPerTest();

const EVIL = "import os; os.system('touch /tmp/keel-owned')\n";

const CASES: {
  name: string;
  hook: string;
  before: [string, string][];
  write: string;
  listing: RegExp[];
  /** A file there now: pinned, so editing it shows in the next trust's diff. */
  pinned?: string;
}[] = [
  {
    name: "pyproject.toml [tool.pytest.ini_options] python_files + testpaths",
    hook: "pytest -q",
    before: [
      [
        "pyproject.toml",
        '[project]\nname = "x"\n\n[tool.pytest.ini_options]\ntestpaths = ["qa"]\npython_files = ["check_*.py"]\n',
      ],
      ["qa/check_a.py", "def test_a(): pass\n"],
    ],
    write: "qa/deeper/check_new.py",
    listing: [/python_files check_\*\.py, testpaths qa from pyproject\.toml/],
    pinned: "qa/check_a.py",
  },
  {
    name: "pytest.ini python_files (a continuation line)",
    hook: "python3 -m pytest",
    before: [
      ["pytest.ini", "[pytest]\npython_files =\n    spec_*.py\n    verify_*.py\n"],
      ["sub/spec_a.py", "def test_a(): pass\n"],
    ],
    write: "sub/verify_b.py",
    listing: [/python_files spec_\*\.py verify_\*\.py from pytest\.ini/],
    pinned: "sub/spec_a.py",
  },
  {
    name: "setup.cfg [tool:pytest] python_files",
    hook: "pytest",
    before: [["setup.cfg", "[metadata]\nname = x\n\n[tool:pytest]\npython_files = t_*.py\n"]],
    write: "lib/t_new.py",
    listing: [/python_files t_\*\.py from setup\.cfg/],
  },
  {
    name: "tox.ini [pytest] python_files",
    hook: "pytest",
    before: [["tox.ini", "[tox]\nenvlist = py3\n\n[pytest]\npython_files = *_spec.py\n"]],
    write: "lib/x_spec.py",
    listing: [/python_files \*_spec\.py from tox\.ini/],
  },
  {
    name: "package.json jest testMatch",
    hook: "npx jest",
    before: [
      ["package.json", JSON.stringify({ jest: { testMatch: ["<rootDir>/checks/**/*.js"] } })],
      ["checks/a.js", "test('a', () => {});\n"],
    ],
    write: "checks/deep/new.js",
    listing: [/testMatch checks\/\*\*\/\*\.js from package\.json/],
    pinned: "checks/a.js",
  },
  {
    name: "jest.config.json testRegex",
    hook: "jest --ci",
    before: [["jest.config.json", JSON.stringify({ testRegex: "\\.check\\.js$" })]],
    write: "src/a.check.js",
    listing: [/testRegex \\\.check\\\.js\$ from jest\.config\.json/],
  },
  {
    name: "jest roots + testMatch",
    hook: "npx jest",
    before: [
      [
        "package.json",
        JSON.stringify({ jest: { roots: ["<rootDir>/qa"], testMatch: ["**/*.chk.js"] } }),
      ],
    ],
    write: "qa/x.chk.js",
    listing: [/roots qa/],
  },
  {
    name: "vitest.config.ts (code): its quoted include patterns",
    hook: "npx vitest run",
    before: [
      [
        "vitest.config.ts",
        "import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { include: ['checks/**/*.ts'] } });\n",
      ],
    ],
    write: "checks/new.ts",
    listing: [/vitest\.config\.ts is code: .*checks\/\*\*\/\*\.ts.*cannot be pinned/],
  },
  {
    name: "vitest.config.ts in a subfolder (cd web): the folder is protected whole",
    hook: "cd web && npx vitest run",
    before: [["web/vitest.config.ts", "export default { test: { include: [process.env.X] } };\n"]],
    write: "web/lib/anything.ts",
    listing: [/cannot be pinned: reaches web .*vitest\.config\.ts is code/],
  },
];

describe("trust reads the project's test-runner configuration", () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const world = await writeCaseWorld(newWorld, c, EVIL);
      const t = await keel(world, ["hooks", "trust", "--cwd", world.project]);
      expect(t.code, t.stderr).toBe(0);
      if (process.env.SHOW) console.log(t.stdout);
      for (const re of c.listing) expect(t.stdout).toMatch(re);
      const r = await keel(world, [
        "run",
        "go",
        "--mode",
        "acceptEdits",
        "--output-format",
        "json",
      ]);
      if (r.stdout === "") throw new Error(r.stderr);
      expect(JSON.parse(r.stdout).toolCalls[0].status).toBe("blocked");
      expect(existsSync(join(world.project, c.write))).toBe(false);
      if (c.pinned !== undefined) {
        put(world, c.pinned, EVIL);
        const again = await keel(world, ["hooks", "trust", "--cwd", world.project]);
        expect(again.stdout).toMatch(
          new RegExp(`- file ${c.pinned.replace(/\./g, "\\.")} [0-9a-f]{16}`),
        );
      }
    });
  }

  it("a pytest.ini found above the runner's folder is itself pinned and protected", async () => {
    const world = await newWorld(
      script(
        reply().tool("write_file", {
          path: "a/pytest.ini",
          content: "[pytest]\npython_files = *.py\n",
        }),
        reply().text("ok"),
      ),
    );
    put(world, "a/pytest.ini", "[pytest]\npython_files = chk_*.py\n");
    put(world, "a/b/chk_a.py", "def test_a(): pass\n");
    keelHook(world, "cd a/b && pytest -q");
    const t = await keel(world, ["hooks", "trust", "--cwd", world.project]);
    expect(t.stdout).toMatch(/python_files chk_\*\.py from a\/pytest\.ini under a:/);
    const r = await keel(world, ["run", "go", "--mode", "acceptEdits", "--output-format", "json"]);
    expect(JSON.parse(r.stdout).toolCalls[0].status).toBe("blocked");
    expect(readFileSync(join(world.project, "a/pytest.ini"), "utf8")).toContain("chk_*.py");
  });

  it("a file the configuration does not collect stays writable (jest roots narrow testMatch)", async () => {
    const world = await newWorld(
      script(
        reply().tool("write_file", { path: "src/x.chk.js", content: "x\n" }),
        reply().text("ok"),
      ),
    );
    put(
      world,
      "package.json",
      JSON.stringify({ jest: { roots: ["<rootDir>/qa"], testMatch: ["**/*.chk.js"] } }),
    );
    keelHook(world, "npx jest");
    // The hook runs after the write: jest is not installed, and npx would fetch it from the
    // registry (30 s here, a network dependency); offline it fails at once. What trust protects
    // is decided before it runs.
    world.env.npm_config_offline = "true";
    const t = await keel(world, ["hooks", "trust", "--cwd", world.project]);
    if (process.env.SHOW) console.log(t.stdout);
    const r = await keel(world, ["run", "go", "--mode", "acceptEdits", "--output-format", "json"]);
    if (process.env.SHOW) console.log(r.stdout);
    expect(JSON.parse(r.stdout).toolCalls[0].status).not.toBe("blocked");
    expect(readFileSync(join(world.project, "src/x.chk.js"), "utf8")).toBe("x\n");
  });
});
