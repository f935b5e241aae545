import { describe, expect, it } from "vitest";
import { analyzeShell } from "../../../src/hooks/shell/parse.js";

describe("analyzeShell remembers recent command lines", () => {
  it("parses a command line once and hands out the same frozen analysis", () => {
    const a = analyzeShell("git status && ls -la");
    const b = analyzeShell("git status && ls -la");
    expect(b).toBe(a);
    expect(a.commands.map((c) => c.argv)).toEqual([
      ["git", "status"],
      ["ls", "-la"],
    ]);
    // Shared between every `if` condition and auto-approval: nobody may change it.
    expect(Object.isFrozen(a)).toBe(true);
    const argv = a.commands[0]?.argv ?? [];
    expect(() => argv.push("x")).toThrow();
  });

  it("keeps a bounded number: an old line is parsed again, to the same result", () => {
    const first = analyzeShell("echo first");
    for (let i = 0; i < 100; i++) analyzeShell(`echo ${i}`);
    const again = analyzeShell("echo first");
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });

  it("remembers lines that do not parse too", () => {
    const bad = analyzeShell("echo 'unterminated");
    expect(bad.parsed).toBe(false);
    expect(analyzeShell("echo 'unterminated")).toBe(bad);
  });
});
