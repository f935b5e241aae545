/**
 * The Claude dialect's tool table (src/hooks/dialects/claude/tools.ts) is the one place a tool's
 * Claude Code name is written: every built-in tool must have an entry there, mapping both ways,
 * or Claude hooks' matchers and permission rules could not find it.
 */
import { describe, expect, it } from "vitest";
import { DIALECTS, keelToolNameFromAny } from "../../src/hooks/index.js";
import { BUILTIN_TOOL_DEFINITIONS } from "../../src/tools/registry.js";

describe("Claude names of the built-in tools", () => {
  it.each(BUILTIN_TOOL_DEFINITIONS.map((d) => [d.name] as const))(
    "%s: the Claude dialect names it and maps the name back",
    (name) => {
      const claudeName = DIALECTS.claude.toolName(name);
      expect(claudeName).not.toBe(name);
      expect(keelToolNameFromAny(claudeName)).toBe(name);
    },
  );

  it("names the tools Claude Code has under another name as Claude Code does", () => {
    expect(DIALECTS.claude.toolName("todo_write")).toBe("TodoWrite");
    expect(DIALECTS.claude.toolName("skill")).toBe("Skill");
  });
});
