/**
 * Auto-approval as an attacker meets it: with a `Read(./.env)` deny rule, git's stored copies of
 * the file are as forbidden as the file (the sandbox hides only the working tree's), and no test
 * runner is ever approved on Keel's own authority (it runs code the model can write).
 */
import { describe, expect, it } from "vitest";
import { autoApprove } from "../../../../src/agent/permissions/auto-approve/index.js";
import { modeVerdict } from "../../../../src/agent/permissions/modes.js";

const RESTRICTED = { readRestricted: true };

/** With Read deny or ask rules: each prints or probes a file's stored contents. */
const ASK_WHEN_READ_RESTRICTED = [
  "git show HEAD:.env",
  "git show",
  "git show HEAD",
  "git --no-pager show HEAD:./.env",
  "git show HEAD~3:config/.env",
  "git diff",
  "git diff HEAD~1 -- .env",
  "git diff --cached",
  "git blame .env",
  "git grep KEY",
  "git grep -e KEY HEAD",
  "git log -p",
  "git log -p -- .env",
  "git log -1p",
  "git log --patch",
  "git log --pat",
  "git log -u",
  "git log -L1,5:.env",
  "git log -W",
  "git log --word-diff",
  "git log --color-words",
  "git log --cc",
  "git log -c",
  "git log --dd",
  "git log --diff-merges=on -p",
  "git log --binary",
  "git log --full-diff -p",
  "git log -S sk-live",
  "git log -Ssk-live --oneline",
  "git log -G 'sk-[a-z]'",
  "git log --pickaxe-regex -S x",
  "git cat-file -p HEAD:.env",
  "cat .env | git show",
];

/** Still fine with Read rules: nothing here prints what a file holds. */
const PASS_WHEN_READ_RESTRICTED = [
  "git status",
  "git status --short",
  "git log --oneline -5",
  "git log --stat",
  "git log --format=%H%x09%s -- .env",
  "git ls-files",
  "git rev-parse HEAD",
  "git branch -a",
  "git describe --tags",
  "cat README.md",
];

/** Test runners and build tools: they run files from the project (conftest.py, test files,
 *  package.json scripts, Makefiles) that the model can write in acceptEdits. */
const RUNNERS = [
  "pytest",
  "pytest -q tests/",
  "python -m pytest",
  "python3 -m unittest",
  "npm test",
  "npm run test",
  "npm t",
  "npx vitest run",
  "vitest run",
  "jest",
  "yarn test",
  "pnpm test",
  "bun test",
  "deno test",
  "node --test",
  "make test",
  "make",
  "cargo test",
  "go test ./...",
  "tox",
  "nox",
  "mvn test",
  "gradle test",
  "./gradlew test",
  "rake test",
  "bundle exec rspec",
  "phpunit",
  "mocha",
  "ctest",
];

describe("auto-approval with Read deny or ask rules", () => {
  it.each(ASK_WHEN_READ_RESTRICTED)("asks: %s", (line) => {
    expect(autoApprove(line, RESTRICTED)).toMatchObject({ approved: false });
  });
  it.each(PASS_WHEN_READ_RESTRICTED)("passes: %s", (line) => {
    expect(autoApprove(line, RESTRICTED)).toEqual({ approved: true });
  });
  it("says why: history the sandbox does not hide", () => {
    const r = autoApprove("git show HEAD:.env", RESTRICTED);
    expect(r.approved ? "" : r.reason).toMatch(/Read deny or ask rules.*history/);
  });
  it("without Read rules, git show and diff stay auto-approved (nothing to hide)", () => {
    expect(autoApprove("git show HEAD:.env")).toEqual({ approved: true });
    expect(autoApprove("git log -p")).toEqual({ approved: true });
  });
  it("modeVerdict passes the rules' presence on: git show asks where it would run sandboxed", () => {
    const sandbox = { available: true as const, bwrap: "/usr/bin/bwrap" };
    const base = { mode: "default" as const, toolName: "shell", kind: "shell" as const, sandbox };
    expect(modeVerdict({ ...base, primary: "git show HEAD:.env" })).toEqual({
      kind: "allow",
      sandboxed: true,
    });
    expect(
      modeVerdict({ ...base, primary: "git show HEAD:.env", readRestricted: true }),
    ).toMatchObject({ kind: "ask" });
    // plan mode refuses rather than runs it
    expect(
      modeVerdict({ ...base, mode: "plan", primary: "git show HEAD:.env", readRestricted: true }),
    ).toMatchObject({ kind: "refuse" });
  });
});

describe("test runners are never auto-approved", () => {
  it.each(RUNNERS)("asks: %s", (line) => {
    expect(autoApprove(line)).toMatchObject({ approved: false });
    const sandbox = { available: true as const, bwrap: "/usr/bin/bwrap" };
    for (const mode of ["default", "acceptEdits"] as const) {
      expect(
        modeVerdict({ mode, toolName: "shell", kind: "shell", primary: line, sandbox }).kind,
      ).toBe("ask");
      // Without a sandbox nothing is approved on Keel's own authority at all.
      expect(
        modeVerdict({
          mode,
          toolName: "shell",
          kind: "shell",
          primary: line,
          sandbox: { available: false, reason: "none" },
        }).kind,
      ).toBe("ask");
    }
  });
});

describe("the parser's bounds", () => {
  it("a 50,000-command pipeline is not parsed, not approved, and does not throw", () => {
    const line = Array(50_000).fill("cat").join("|");
    const started = Date.now();
    expect(autoApprove(line)).toMatchObject({ approved: false });
    expect(Date.now() - started).toBeLessThan(1000);
  });
  it("a 1,000-command pipeline of allowlisted commands (short enough by length) is not approved", () => {
    const line = Array(1000).fill("cat").join("|");
    const r = autoApprove(line);
    expect(r.approved).toBe(false);
    expect(r.approved ? "" : r.reason).toMatch(/operator characters/);
  });
  it("deeply nested groups are not approved", () => {
    expect(autoApprove(`${"(".repeat(5000)}cat x${")".repeat(5000)}`).approved).toBe(false);
  });
  it("an ordinary long line still parses", () => {
    const line = Array(30).fill("cat a.txt").join(" && ");
    expect(autoApprove(line)).toEqual({ approved: true });
  });
});
