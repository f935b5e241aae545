/**
 * The cache prefix (system prompt + the built-in tools' specs, as the agent prepares them) and
 * the tables derived from the tool definitions, compared byte for byte with fixtures captured
 * on main before tools became `defineTool` files. A change here changes what every session
 * sends first (the provider's prefix cache) or how hooks and rules see a tool: update the
 * fixture only on purpose (`KEEL_WRITE_FIXTURES=1`).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RULE_TOOL_MAP } from "../../src/agent/permissions/rule-tool-map.js";
import { prepareToolSpecs } from "../../src/agent/repair/index.js";
import { SYSTEM_PROMPT } from "../../src/agent/system-prompt.js";
import { DEFAULT_TOOL_INPUTS } from "../../src/cli/commands/hooks/payload.js";
import { DIALECT_LIST } from "../../src/hooks/dialects/index.js";
import { BUILTIN_TOOL_HOOK_FACTS } from "../../src/tools/hook-facts.js";
import { createBuiltinTools, READ_ONLY_TOOL_NAMES, toolSpecs } from "../../src/tools/registry.js";

const FIXTURES = join(__dirname, "fixtures");

function matchesFixture(name: string, actual: string): void {
  const path = join(FIXTURES, name);
  if (process.env.KEEL_WRITE_FIXTURES === "1") writeFileSync(path, actual);
  expect(actual).toBe(readFileSync(path, "utf8"));
}

describe("what the tool definitions produce, against main's bytes", () => {
  it("the serialized prefix (system prompt + tool specs) is unchanged", () => {
    // As `keel run` and the TUI build the tools: with web access, without a search provider
    // (web_search joins the prefix only for users who name one).
    const web = { get: async () => ({ ok: false as const, message: "offline" }) };
    const specs = prepareToolSpecs(
      toolSpecs(createBuiltinTools({ cwd: "/tmp/keel-prefix" }, { web })),
    ).specs;
    matchesFixture("prefix.snap", JSON.stringify({ systemPrompt: SYSTEM_PROMPT, tools: specs }));
  });

  it("for a model that takes images, read_file's description adds one line, nothing else", () => {
    const web = { get: async () => ({ ok: false as const, message: "offline" }) };
    const specsWith = (vision: boolean) =>
      prepareToolSpecs(
        toolSpecs(
          createBuiltinTools({ cwd: "/tmp/keel-prefix" }, { web, ...(vision ? { vision } : {}) }),
        ),
      ).specs;
    const vision = specsWith(true);
    matchesFixture(
      "prefix-vision.snap",
      JSON.stringify({ systemPrompt: SYSTEM_PROMPT, tools: vision }),
    );
    const plain = specsWith(false);
    const differing = vision.filter((t, i) => JSON.stringify(t) !== JSON.stringify(plain[i]));
    expect(differing.map((t) => t.function.name)).toEqual(["read_file"]);
    const read = (specs: typeof plain) =>
      specs.find((t) => t.function.name === "read_file")?.function.description ?? "";
    expect(read(vision).startsWith(`${read(plain)}\n- Images (PNG, JPEG, GIF, WebP`)).toBe(true);
  });

  it("hook facts, read-only names, hooks-test inputs and dialect tool tables are unchanged", () => {
    // Which dialects shape each tool's response: on main the tool's descriptor listed them;
    // now each dialect lists its own (hooks/dialects/<name>/responses.ts). Compared as sets.
    const shapers = (tool: string) =>
      DIALECT_LIST.filter((d) => d.toolResponses?.[tool] !== undefined)
        .map((d) => d.name)
        .sort();
    const facts = BUILTIN_TOOL_HOOK_FACTS.map((f) => {
      const response = shapers(f.name);
      return { ...f, ...(response.length > 0 ? { response } : {}) };
    });
    const dialectTools = Object.fromEntries(DIALECT_LIST.map((d) => [d.name, d.tools]));
    const tables = {
      facts,
      readOnly: READ_ONLY_TOOL_NAMES,
      inputs: DEFAULT_TOOL_INPUTS,
      dialectTools,
    };
    if (process.env.KEEL_WRITE_FIXTURES === "1") {
      writeFileSync(join(FIXTURES, "derived-tables.snap"), JSON.stringify(tables, null, 1));
    }
    const fixture = JSON.parse(readFileSync(join(FIXTURES, "derived-tables.snap"), "utf8")) as {
      facts: { response?: string[] }[];
    };
    for (const f of fixture.facts) f.response?.sort();
    expect(JSON.parse(JSON.stringify(tables))).toEqual(fixture);
  });

  it("permission rules name the same tools as main's hand-written map", () => {
    if (process.env.KEEL_WRITE_FIXTURES === "1") {
      writeFileSync(join(FIXTURES, "rule-tool-map.snap"), JSON.stringify(RULE_TOOL_MAP, null, 1));
    }
    const fixture = JSON.parse(
      readFileSync(join(FIXTURES, "rule-tool-map.snap"), "utf8"),
    ) as Record<string, { tools: string[]; spec: string }>;
    const sorted = (m: Record<string, { tools: readonly string[]; spec: string }>) =>
      Object.fromEntries(
        Object.keys(m)
          .sort()
          .map((k) => [k, { tools: [...(m[k]?.tools ?? [])].sort(), spec: m[k]?.spec }]),
      );
    expect(sorted(RULE_TOOL_MAP)).toEqual(sorted(fixture));
  });
});
