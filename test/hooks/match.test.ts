import { describe, expect, it } from "vitest";
import { compileMatcher, parseCondition, splitShellCommand } from "../../src/hooks/match.js";

function matches(
  style: "anchored" | "claude" | "exact",
  matcher: string | undefined,
  value: string,
  mode: "name" | "search" = "name",
) {
  const m = compileMatcher(style, matcher, mode);
  if (!m.ok) throw new Error(m.message);
  return m.test(value);
}

describe("compileMatcher", () => {
  it.each([
    ["anchored", undefined, "shell", true],
    ["anchored", "*", "shell", true],
    ["anchored", "", "shell", true],
    ["anchored", "file", "read_file", false],
    ["anchored", ".*file", "read_file", true],
    ["anchored", "read_file|write_file", "write_file", true],
    ["anchored", "shell", "shell_x", false],
    ["claude", "Bash", "Bash", true],
    ["claude", "Edit|Write", "Write", true],
    ["claude", "Edit, Write", "Write", true],
    ["claude", "Edit", "NotebookEdit", false],
    ["claude", "Edit.*", "NotebookEdit", true],
    ["claude", "mcp__.*", "mcp__github__search", true],
    ["claude", "Bash", "bash", false],
    ["exact", "bash", "bash", true],
    ["exact", "bash", "bash2", false],
    ["exact", "ba.*", "bash", false],
  ] as const)("%s %s vs %s", (style, matcher, value, want) => {
    expect(matches(style, matcher, value)).toBe(want);
  });

  it("searches prompt text instead of matching it whole", () => {
    expect(matches("anchored", "secret", "my secret key", "search")).toBe(true);
    expect(matches("anchored", "^deploy", "please deploy", "search")).toBe(false);
  });

  it("a malformed regex is an error, never match-all", () => {
    const m = compileMatcher("anchored", "[unclosed");
    expect(m.ok).toBe(false);
    const c = compileMatcher("claude", "(Edit");
    expect(c.ok).toBe(false);
  });
});

describe("splitShellCommand", () => {
  it.each([
    ["git status && git push origin", ["git status", "git push origin"]],
    ["a || b; c | d & e", ["a", "b", "c", "d", "e"]],
    ["echo 'a && b' && c", ["echo 'a && b'", "c"]],
    ['echo "x;y" ; z', ['echo "x;y"', "z"]],
  ])("%s", (cmd, want) => {
    expect(splitShellCommand(cmd)).toEqual(want);
  });
});

describe("parseCondition", () => {
  const dir = "/proj";
  it.each([
    ["Bash(git push*)", "shell", { command: "git push origin main" }, true],
    ["Bash(git push*)", "shell", { command: "cd x && git push" }, true],
    ["Bash(git push*)", "shell", { command: "echo git push" }, false],
    ["shell(git *)", "shell", { command: "git log" }, true],
    ["run_command(npm test*)", "shell", { command: "npm test -- -u" }, true],
    ["Bash(npm run test:*)", "shell", { command: "npm run test --watch" }, true],
    ["Write(src/**/*.ts)", "write_file", { path: "src/a/b.ts" }, true],
    ["Write(src/**/*.ts)", "write_file", { path: "/proj/src/b.ts" }, true],
    ["Write(src/**/*.ts)", "write_file", { path: "lib/b.ts" }, false],
    ["write_file(src/**/*.ts)", "write_file", { path: "src/x.ts" }, true],
    ["Edit(*.ts)", "edit_file", { path: "deep/dir/x.ts" }, true],
    ["Edit(*.ts)", "edit_file", { path: "deep/dir/x.js" }, false],
    ["Read", "read_file", { path: "anything" }, true],
  ] as const)("%s", (text, tool, input, want) => {
    const parsed = parseCondition(text);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.condition.tool).toBe(tool);
    expect(parsed.condition.test(input, dir)).toBe(want);
  });

  it("rejects text that is not Tool(glob)", () => {
    expect(parseCondition("Bash(git").ok).toBe(false);
    expect(parseCondition("not a rule!").ok).toBe(false);
  });
});
