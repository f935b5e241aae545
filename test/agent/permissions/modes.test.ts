import { describe, expect, it } from "vitest";
import { isReadOnlyCommand, modeVerdict } from "../../../src/agent/permissions/modes.js";

describe("isReadOnlyCommand", () => {
  it.each([
    ["ls -la", true],
    ["git status", true],
    ["git diff HEAD~1 | head -20", true],
    ["cat a.txt && wc -l b.txt", true],
    ["grep -rn foo src", true],
    ["git branch", true],
    ["git branch -D main", false],
    ["git push", false],
    ["rm -rf /", false],
    ["cat a > b", false],
    ["ls; rm x", false],
    ["echo $(rm x)", false],
    ["echo `rm x`", false],
    ["find . -delete", false],
    ["find . -exec rm {} ;", false],
    ["sort -o out.txt in.txt", false],
    ["sleep 100 &", false],
    ["npm test", false],
    ["", false],
  ])("%s -> %s", (cmd, expected) => {
    expect(isReadOnlyCommand(cmd)).toBe(expected);
  });
});

describe("modeVerdict", () => {
  const cases = [
    ["default", "read", undefined, "allow"],
    ["default", "write", "a.txt", "ask"],
    ["default", "shell", "ls", "allow"],
    ["default", "shell", "npm test", "ask"],
    ["acceptEdits", "write", "a.txt", "allow"],
    ["acceptEdits", "shell", "npm test", "ask"],
    ["plan", "read", undefined, "allow"],
    ["plan", "shell", "git diff", "allow"],
    ["plan", "write", "a.txt", "refuse"],
    ["plan", "shell", "npm test", "refuse"],
    ["bypassPermissions", "write", "a.txt", "allow"],
    ["bypassPermissions", "shell", "rm -rf x", "allow"],
  ] as const;
  const sandbox = { available: true, bwrap: "/usr/bin/bwrap" } as const;
  it.each(cases)("%s %s %s -> %s", (mode, kind, primary, expected) => {
    expect(modeVerdict({ mode, toolName: "t", kind, primary, sandbox }).kind).toBe(expected);
  });

  it("auto-approved shell commands carry sandboxed; a person's choices do not", () => {
    expect(
      modeVerdict({ mode: "default", toolName: "t", kind: "shell", primary: "ls", sandbox }),
    ).toEqual({
      kind: "allow",
      sandboxed: true,
    });
    expect(
      modeVerdict({ mode: "bypassPermissions", toolName: "t", kind: "shell", primary: "ls" }),
    ).toEqual({
      kind: "allow",
    });
  });

  it("without the sandbox every shell command asks, and says why", () => {
    const none = { available: false, reason: "bwrap is missing" } as const;
    for (const mode of ["default", "acceptEdits", "plan"] as const) {
      const v = modeVerdict({ mode, toolName: "t", kind: "shell", primary: "ls", sandbox: none });
      expect(v).toEqual({ kind: "ask", reason: expect.stringContaining("bwrap is missing") });
    }
    expect(modeVerdict({ mode: "default", toolName: "t", kind: "shell", primary: "ls" }).kind).toBe(
      "ask",
    );
  });
});
