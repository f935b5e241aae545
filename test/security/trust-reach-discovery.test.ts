/**
 * Trust pins what a hook reaches, or says it cannot and protects it (issue 26; the second red
 * team's attacks2/07, 08, 10, 12, 31, 41, 42, 43, 60, 61): a script named through the hook's own
 * `env`, `find DIR -exec`, `sh "tools/$f"` in a loop, `node scripts/lint` (Node's resolution),
 * and the test files discovering runners find (bare `pytest`, `node --test`, `unittest
 * discover`). The model in acceptEdits writes the reached file: the write needs a person, so
 * headless it is blocked. Through `keel hooks trust` and `keel run` against the simulator.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { keel, type World, worldPerTest } from "../agent/harness.js";
import { keelHook, put, writeAfterTrust } from "./trust-world.js";

const newWorld = worldPerTest();

const EVIL = "touch /tmp/keel-owned\n";

const CASES: {
  name: string;
  hook: (world: World) => void;
  before: [string, string][];
  write: string;
  listing: RegExp;
}[] = [
  {
    name: '07/08: sh "$HOOK_S" with the hook\'s own env HOOK_S=tools/guard.sh (Gemini)',
    hook: (world) =>
      put(
        world,
        ".gemini/settings.json",
        JSON.stringify({
          hooks: {
            AfterTool: [
              {
                matcher: ".*",
                hooks: [
                  { type: "command", command: 'sh "$HOOK_S"', env: { HOOK_S: "tools/guard.sh" } },
                ],
              },
            ],
          },
        }),
      ),
    before: [["tools/guard.sh", "exit 0\n"]],
    write: "tools/guard.sh",
    listing: /HOOK_S/,
  },
  {
    name: "31: find tools -name '*.sh' -exec sh {} \\; (no root glob claimed)",
    hook: (world) => keelHook(world, "find tools -name '*.sh' -exec sh {} \\;"),
    before: [["tools/a.sh", "exit 0\n"]],
    write: "tools/a.sh",
    listing: /cannot be pinned: reaches tools \(find runs/,
  },
  {
    name: "31b: find tools | xargs sh reaches a new file",
    hook: (world) => keelHook(world, "find tools -type f | xargs -n1 sh"),
    before: [["tools/a.sh", "exit 0\n"]],
    write: "tools/new.sh",
    listing: /cannot be pinned: reaches tools/,
  },
  {
    name: '41: ls tools | while read f; do sh "tools/$f"; done (a new file)',
    hook: (world) => keelHook(world, 'ls tools | while read f; do sh "tools/$f"; done'),
    before: [["tools/a.sh", "exit 0\n"]],
    write: "tools/zz.sh",
    listing: /cannot be pinned: reaches tools \(the hook runs tools\/\$f\)/,
  },
  {
    name: "10: npm script node scripts/lint runs scripts/lint.js",
    hook: (world) => keelHook(world, "npm run -s lint"),
    before: [
      ["package.json", JSON.stringify({ scripts: { lint: "node scripts/lint" } })],
      ["scripts/lint.js", "\n"],
    ],
    write: "scripts/lint.js",
    listing: /./,
  },
  {
    name: "60: bare pytest, a new test_zz.py at the root",
    hook: (world) => keelHook(world, "pytest -q"),
    before: [["test_a.py", "def test_a(): pass\n"]],
    write: "test_zz.py",
    listing: /cannot be pinned: pytest collects test_\*\.py.* under \./,
  },
  {
    name: "12: bare pytest, a deeper conftest.py",
    hook: (world) => keelHook(world, "pytest -q"),
    before: [["tests/sub/test_a.py", "def test_a(): pass\n"]],
    write: "tests/sub/conftest.py",
    listing: /conftest\.py/,
  },
  {
    name: "42: node --test, a new lib/new.test.js",
    hook: (world) => keelHook(world, "node --test"),
    before: [["test/a.test.js", "require('node:test')('a', () => {});\n"]],
    write: "lib/new.test.js",
    listing: /cannot be pinned: node --test runs/,
  },
  {
    name: "61: npm test → node --test, a new src/zz.test.mjs",
    hook: (world) => keelHook(world, "npm test --silent"),
    before: [["package.json", JSON.stringify({ scripts: { test: "node --test" } })]],
    write: "src/zz.test.mjs",
    listing: /cannot be pinned: node --test runs/,
  },
  {
    name: "attacks4/12: node --test, a new checks.test.ts (Node 22.18+ runs TypeScript)",
    hook: (world) => keelHook(world, "node --test"),
    before: [["test/a.test.js", "require('node:test')('a', () => {});\n"]],
    write: "checks.test.ts",
    listing: /cannot be pinned: node --test runs/,
  },
  {
    name: "43: python3 -m unittest discover, a new tests/test_new.py",
    hook: (world) => keelHook(world, "python3 -m unittest discover -q"),
    before: [["tests/__init__.py", ""]],
    write: "tests/test_new.py",
    listing: /cannot be pinned: unittest discover imports test\*\.py/,
  },
];

describe("what a trusted hook reaches is pinned or protected (attacks2)", () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const world = await newWorld(
        script(reply().tool("write_file", { path: c.write, content: EVIL }), reply().text("ok")),
      );
      for (const [rel, text] of c.before) put(world, rel, text);
      c.hook(world);
      const before = existsSync(join(world.project, c.write))
        ? readFileSync(join(world.project, c.write), "utf8")
        : null;
      const got = await writeAfterTrust(world);
      expect(got.listing).toMatch(c.listing);
      expect(got.status).toBe("blocked");
      const after = existsSync(join(world.project, c.write))
        ? readFileSync(join(world.project, c.write), "utf8")
        : null;
      expect(after).toBe(before);
    });
  }

  it("31: find's -name pattern is not listed as a pinned root glob", async () => {
    const world = await newWorld(script(reply().text("ok")));
    put(world, "tools/a.sh", "exit 0\n");
    keelHook(world, "find tools -name '*.sh' -exec sh {} \\;");
    const t = await keel(world, ["hooks", "trust", "--cwd", world.project]);
    expect(t.stdout).not.toMatch(/pinned: the files matching \*\.sh/);
  });

  it("a program word that is wholly an expansion is named as cannot be pinned", async () => {
    const world = await newWorld(script(reply().text("ok")));
    keelHook(world, 'sh "$(git rev-parse --show-toplevel)/x.sh"');
    const t = await keel(world, ["hooks", "trust", "--cwd", world.project]);
    expect(t.stdout).toMatch(/cannot be pinned: \$\(git rev-parse/);
  });

  it("an ordinary file a bare pytest does not collect stays writable", async () => {
    const world = await newWorld(
      script(reply().tool("write_file", { path: "notes.txt", content: "x\n" }), reply().text("ok")),
    );
    keelHook(world, "pytest -q");
    const got = await writeAfterTrust(world);
    expect(got.status).not.toBe("blocked");
  });
});
