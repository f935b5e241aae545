import { describe, expect, it } from "vitest";
import {
  createBuiltinTools,
  findTool,
  toolSpecs,
  validateToolInput,
} from "../../src/tools/registry.js";

const tools = createBuiltinTools({ cwd: "/tmp/keel-registry-test" });
function tool(name: string) {
  const t = findTool(tools, name);
  if (!t) throw new Error(`no tool ${name}`);
  return t;
}

describe("createBuiltinTools / toolSpecs", () => {
  it("returns the built-in tools in a fixed order with kinds", () => {
    expect(tools.map((t) => [t.name, t.kind])).toEqual([
      ["shell", "shell"],
      ["read_file", "read"],
      ["write_file", "write"],
      ["edit_file", "write"],
      ["glob", "read"],
      ["grep", "read"],
      ["list_dir", "read"],
      ["shell_output", "read"],
      ["kill_shell", "read"],
      ["todo_write", "session"],
    ]);
  });

  it("includes the skill tool only when the session has skills, listing them sorted by name", () => {
    const entry = (name: string) => ({
      name,
      description: `about ${name}`,
      dir: `/s/${name}`,
      source: "user" as const,
      allowedTools: [],
    });
    const withSkills = createBuiltinTools(
      { cwd: "/p" },
      { skills: { skills: [entry("zeta"), entry("alpha")] } },
    );
    const skill = withSkills.at(-1);
    expect(skill?.name).toBe("skill");
    expect(skill?.kind).toBe("session");
    expect(skill?.description).toMatch(/- alpha: about alpha\n- zeta: about zeta$/);
  });

  it("offers web_fetch with web access, web_search only with a search provider too", () => {
    const get = async () => ({ ok: false as const, message: "offline" });
    const names = (ts: ReturnType<typeof createBuiltinTools>) =>
      ts.map((t) => t.name).filter((n) => n.startsWith("web_"));
    expect(names(createBuiltinTools({ cwd: "/tmp/x" }, { web: { get } }))).toEqual(["web_fetch"]);
    const search = async () => ({ ok: true as const, hits: [] });
    expect(names(createBuiltinTools({ cwd: "/tmp/x" }, { web: { get, search } }))).toEqual([
      "web_fetch",
      "web_search",
    ]);
    expect(
      toolSpecs(createBuiltinTools({ cwd: "/tmp/x" }, { web: { get, search } }))
        .filter((s) => !s.function.name.startsWith("web_"))
        .map((s) => JSON.stringify(s)),
    ).toEqual(toolSpecs(tools).map((s) => JSON.stringify(s)));
  });

  it("derives stable JSON Schema parameters without $schema or zod's safe-integer bounds", () => {
    const specs = toolSpecs(tools);
    const again = toolSpecs(createBuiltinTools({ cwd: "/elsewhere" }));
    // Same bytes whatever the project: the specs are part of the cached prefix.
    expect(JSON.stringify(again)).toBe(JSON.stringify(specs));
    const shell = specs[0]?.function;
    expect(shell?.name).toBe("shell");
    expect(shell?.parameters).toEqual({
      additionalProperties: false,
      properties: {
        command: expect.objectContaining({ type: "string" }),
        timeout_ms: expect.objectContaining({ type: "integer", minimum: 1, maximum: 600000 }),
        run_in_background: expect.objectContaining({ type: "boolean" }),
      },
      required: ["command"],
      type: "object",
    });
    const text = JSON.stringify(specs);
    expect(text).not.toContain("$schema");
    expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER));
    for (const spec of specs) expect(spec.type).toBe("function");
  });
});

describe("validateToolInput", () => {
  it("accepts valid input and JSON strings", () => {
    expect(validateToolInput(tool("shell"), { command: "ls" })).toEqual({
      ok: true,
      input: { command: "ls" },
    });
    expect(validateToolInput(tool("read_file"), '{"path":"a","limit":5}')).toEqual({
      ok: true,
      input: { path: "a", limit: 5 },
    });
  });

  it("names missing fields, wrong types, bounds and unknown fields", () => {
    const r = validateToolInput(tool("shell"), { timeout_ms: 1_000_000, cmd: "ls" });
    expect(r).toEqual({
      ok: false,
      error:
        "shell: invalid arguments: `command` is required (string); `timeout_ms` must be at most 600000; unknown field `cmd` (expected {command, run_in_background?, timeout_ms?}).",
    });
    const wrong = validateToolInput(tool("edit_file"), {
      path: "a",
      old_string: 3,
      new_string: "x",
    });
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) expect(wrong.error).toContain("`old_string` must be a string, got a number");
    const empty = validateToolInput(tool("read_file"), { path: "" });
    if (!empty.ok) expect(empty.error).toContain("`path` must not be empty");
    expect(empty.ok).toBe(false);
  });

  it("explains non-object and malformed JSON arguments", () => {
    const arr = validateToolInput(tool("glob"), [1]);
    expect(arr).toEqual({
      ok: false,
      error: "glob: the arguments must be a JSON object (expected {path?, pattern}).",
    });
    const bad = validateToolInput(tool("grep"), "{pattern:");
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatch(/^grep: the arguments are not valid JSON/);
  });
});
