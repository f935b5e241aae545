/**
 * What a trusted hook's program really runs (attack6, class A, issue 26), through `keel hooks
 * trust` and `keel run --mode acceptEdits` against `keel sim`: the model's write of a file the
 * hook would run next is refused (headless: it needs a person), so the next run cannot run it
 * unpinned.
 * - 13: `python3 hooks/check.py` puts hooks/ first on sys.path; `import subprocess` loads the
 *   standard library's `selectors`, which hooks/selectors.py would replace (python-path-reach.ts).
 * - 14, 31: a package.json script or a Makefile recipe naming `eslint`/`prettier` runs
 *   node_modules/.bin's (node-bin-reach.ts).
 * - 44: prettier/eslint/babel data configs name plugins, which are code (RUNNER_FILES).
 * - 20: a repository's `.git/config` gpg.program with log.showSignature, run by a user hook's
 *   `git log` (child-env.ts GIT_SAFETY_OVERRIDES).
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { commandHook, keel, worldPerTest, writeSettings } from "../agent/harness.js";
import { writeAfterTrust, writeCaseWorld } from "./trust-world.js";

const newWorld = worldPerTest();
const EVIL = "open('/tmp/keel-owned','w')\n";

const BIN = "#!/bin/sh\nexit 0\n";
const CASES: { name: string; hook: string; before: [string, string][]; write: string }[] = [
  {
    name: "13: python3 hooks/check.py (import subprocess): hooks/selectors.py",
    hook: "python3 hooks/check.py",
    before: [["hooks/check.py", "import subprocess, sys\n"]],
    write: "hooks/selectors.py",
  },
  {
    name: "13: a package in the script's folder: hooks/signal/__init__.py",
    hook: "python3 hooks/check.py",
    before: [["hooks/check.py", "import subprocess\n"]],
    write: "hooks/signal/__init__.py",
  },
  {
    name: "13: python3 -c 'import subprocess' in the project: selectors.py",
    hook: "python3 -c 'import subprocess'",
    before: [],
    write: "selectors.py",
  },
  {
    name: "14: npm run -s lint ('eslint .'): node_modules/.bin/eslint overwritten",
    hook: "npm run -s lint",
    before: [
      ["package.json", JSON.stringify({ name: "p", scripts: { lint: "eslint ." } })],
      ["node_modules/.bin/eslint", BIN],
    ],
    write: "node_modules/.bin/eslint",
  },
  {
    name: "14: npm test ('cat x'): a new node_modules/.bin/cat shadows the system's",
    hook: "npm test",
    before: [["package.json", JSON.stringify({ name: "p", scripts: { test: "cat x" } })]],
    write: "node_modules/.bin/cat",
  },
  {
    name: "31: make -s fmt (recipe prettier --check .): node_modules/.bin/prettier",
    hook: "make -s fmt",
    before: [
      [
        "Makefile",
        "export PATH := $(CURDIR)/node_modules/.bin:$(PATH)\nfmt:\n\tprettier --check .\n",
      ],
      ["node_modules/.bin/prettier", BIN],
    ],
    write: "node_modules/.bin/prettier",
  },
  {
    name: "44: prettier --check .: a new .prettierrc.json (its plugins are code)",
    hook: "prettier --check .",
    before: [],
    write: ".prettierrc.json",
  },
  {
    name: "44: the plugin an existing .prettierrc.json names: tools/p.cjs",
    hook: "prettier --check .",
    before: [[".prettierrc.json", JSON.stringify({ plugins: ["./tools/p.cjs"] })]],
    write: "tools/p.cjs",
  },
  {
    name: "44: eslint .: a new .eslintrc.json",
    hook: "eslint .",
    before: [],
    write: ".eslintrc.json",
  },
  {
    name: "44: jest (babel-jest): a new babel.config.js",
    hook: "jest",
    before: [],
    write: "babel.config.js",
  },
];

describe("what a trusted hook's program runs cannot be written in acceptEdits", () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const world = await writeCaseWorld(newWorld, c, EVIL);
      const { status } = await writeAfterTrust(world);
      expect(status).toBe("blocked");
    });
  }
});

describe("a repository's git config cannot run a program from a user hook's git (20)", () => {
  it("log.showSignature + gpg.program: `git log` does not run it", async () => {
    const world = await newWorld(script(reply().text("hi")));
    const git = (...args: string[]) =>
      execFileSync("git", args, { cwd: world.project, env: world.env }).toString().trim();
    git("init", "-q");
    writeFileSync(join(world.project, "a"), "a\n");
    git("add", "a");
    git("-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "one");
    const tree = git("rev-parse", "HEAD^{tree}");
    const body = `tree ${tree}\nauthor a <a@b> 1 +0000\ncommitter a <a@b> 1 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n AAAA\n -----END PGP SIGNATURE-----\n\nsigned\n`;
    writeFileSync(join(world.root, "c"), body);
    git("update-ref", "HEAD", git("hash-object", "-t", "commit", "-w", join(world.root, "c")));
    const owned = join(world.root, "owned");
    const gpg = join(world.project, ".gitgpg");
    writeFileSync(gpg, `#!/bin/sh\ntouch '${owned}'\nexit 1\n`);
    chmodSync(gpg, 0o755);
    git("config", "log.showSignature", "true");
    git("config", "gpg.program", gpg);
    // Control: git itself runs it.
    git("log", "-1", "--oneline");
    expect(existsSync(owned)).toBe(true);
    execFileSync("rm", [owned]);
    const ran = join(world.root, "ran");
    mkdirSync(world.home, { recursive: true });
    writeSettings(world, {
      UserPromptSubmit: [commandHook(`git log -1 --oneline > '${ran}' 2>&1`)],
    });
    const r = await keel(world, ["run", "go"]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(ran)).toBe(true);
    expect(existsSync(owned)).toBe(false);
  });
});
