import { describe, expect, it } from "vitest";
import { BUILTIN_TOOL_HOOK_FACTS } from "../../src/tools/hook-facts.js";
import { createBuiltinTools } from "../../src/tools/registry.js";

const cwd = "/work/proj";
// Every definition offered: web tools come only with web access (and a search provider), the
// skill tool only with skills.
const web = {
  get: async () => ({ ok: false as const, message: "offline" }),
  search: async () => ({ ok: true as const, hits: [] }),
};
const tools = createBuiltinTools(
  { cwd },
  {
    web,
    skills: {
      skills: [{ name: "pdf", description: "PDFs", dir: "/x", source: "user", allowedTools: [] }],
    },
  },
);

/** A sample input for each tool with every string field set to something distinct. */
const samples: Record<string, Record<string, unknown>> = {
  shell: { command: "git status" },
  read_file: { path: "src/a.ts" },
  write_file: { path: "src/b.ts", content: "x" },
  edit_file: { path: "src/c.ts", old_string: "a", new_string: "b" },
  glob: { pattern: "**/*.ts", path: "src" },
  grep: { pattern: "TODO", path: "lib" },
  list_dir: { path: "docs" },
  skill: { skill: "pdf" },
  shell_output: { id: "bg1" },
  kill_shell: { id: "bg2" },
  web_fetch: { url: "https://example.com/a" },
  web_search: { query: "keel" },
};

describe("each built-in tool has one hook descriptor that agrees with the tool", () => {
  it("covers exactly the built-in tools", () => {
    expect(BUILTIN_TOOL_HOOK_FACTS.map((f) => f.name).sort()).toEqual(
      tools.map((t) => t.name).sort(),
    );
  });

  it.each(tools.map((t) => [t.name, t] as const))(
    "%s: input fields and primary argument",
    (name, tool) => {
      const facts = BUILTIN_TOOL_HOOK_FACTS.find((f) => f.name === name);
      expect(facts).toBeDefined();
      if (!facts) return;
      const shape = (tool.schema as unknown as { shape: Record<string, unknown> }).shape;
      expect([...facts.inputFields].sort()).toEqual(Object.keys(shape).sort());
      const input = samples[name] ?? {};
      // The tool's own primaryArg returns the value of the field the descriptor names.
      expect(tool.primaryArg(input)).toBe(input[facts.primaryArg]);
      if (facts.primaryDefault !== undefined) {
        const { [facts.primaryArg]: _, ...rest } = input;
        expect(tool.primaryArg(rest)).toBe(facts.primaryDefault);
      }
    },
  );
});
