/**
 * A tool definition's `claudeName` and the Claude dialect's table (hooks/ may not import tools/,
 * so the name is written in both places) must agree: Claude hooks' matchers and permission rules
 * find the tool by it.
 */
import { describe, expect, it } from "vitest";
import { DIALECTS, keelToolNameFromAny } from "../../src/hooks/index.js";
import { BUILTIN_TOOL_DEFINITIONS } from "../../src/tools/registry.js";

describe("Claude names of the built-in tools", () => {
  const named = BUILTIN_TOOL_DEFINITIONS.filter((d) => d.claudeName !== undefined);

  it("covers the tools Claude Code has under another name", () => {
    expect(named.map((d) => [d.name, d.claudeName])).toEqual([
      ["todo_write", "TodoWrite"],
      ["skill", "Skill"],
    ]);
  });

  it.each(named.map((d) => [d.name, d] as const))("%s: the dialect maps both ways", (_, def) => {
    expect(DIALECTS.claude.toolName(def.name)).toBe(def.claudeName);
    expect(keelToolNameFromAny(def.claudeName ?? "")).toBe(def.name);
  });
});
