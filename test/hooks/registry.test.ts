import { describe, expect, it } from "vitest";
import { resolveHookPaths } from "../../src/hooks/config/load.js";
import { mergeSettings } from "../../src/hooks/config/settings.js";
import { DIALECT_LIST, DIALECTS } from "../../src/hooks/dialects/index.js";
import { parseCondition } from "../../src/hooks/match.js";
import { toolCatalog } from "../../src/hooks/tool-descriptor.js";
import { BUILTIN_TOOL_HOOK_FACTS } from "../../src/tools/hook-facts.js";

const paths = resolveHookPaths({ projectDir: "/p", keelHome: "/k", homeDir: "/h" });

describe("the dialect registry", () => {
  it("lists each dialect once, by its own name", () => {
    const names = DIALECT_LIST.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    for (const d of DIALECT_LIST) expect(DIALECTS[d.name]).toBe(d);
  });

  it("gives every dialect its own files (Keel's first)", async () => {
    const settings = mergeSettings([], []);
    settings.cagent.user.push("~/agents/a.yaml");
    expect(DIALECT_LIST[0]?.name).toBe("keel");
    const lists = await Promise.all(DIALECT_LIST.map(async (d) => d.files(paths, settings)));
    const all = lists.flat().map((f) => f.path);
    expect(new Set(all).size).toBe(all.length);
    expect((await DIALECTS.claude.files(paths, settings)).map((f) => f.path)).toContain(
      "/p/.claude/settings.json",
    );
    expect(await DIALECTS.cagent.files(paths, settings)).toEqual([
      { path: "/h/agents/a.yaml", scope: "user", mustExist: true },
    ]);
  });

  it("maps every tool name of every dialect back to Keel's", () => {
    for (const d of DIALECT_LIST) {
      for (const keel of Object.keys(d.tools)) expect(d.keelToolName(d.toolName(keel))).toBe(keel);
    }
  });
});

describe("`if` conditions use the tool's descriptor for the primary argument", () => {
  const tools = toolCatalog(BUILTIN_TOOL_HOOK_FACTS);
  it.each([
    ["Grep(src/**)", { pattern: "TODO", path: "src/lib" }, true],
    ["Grep(src/**)", { pattern: "src/x", path: "docs" }, false],
    ["Glob(docs/**)", { pattern: "*.md", path: "docs/api" }, true],
    ["Bash(git push*)", { command: "ls && git push origin" }, true],
    ["Read(*.env)", { path: "config/.env" }, true],
  ] as const)("%s on %j → %s", (cond, input, expected) => {
    const parsed = parseCondition(cond);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.condition.test({ ...input }, "/p", tools)).toBe(expected);
  });
});
