import { describe, expect, it } from "vitest";
import { DIALECTS, keelToolNameFromAny, shapePayload } from "../../src/hooks/dialects/index.js";
import type { AnyEventPayload } from "../../src/hooks/events.js";
import { buildPayload } from "../../src/hooks/payload.js";
import type { DialectName } from "../../src/hooks/types.js";

const projectDir = "/work/proj";
const pre = buildPayload("PreToolUse", {
  projectDir,
  sessionId: "s1",
  tool: "write_file",
  input: { path: "src/a.ts", content: "x = 1", nested: { a: 1 } },
});

function stdinOf(dialect: DialectName, payload: AnyEventPayload = pre) {
  return JSON.parse(shapePayload(DIALECTS[dialect], payload, { projectDir }).stdin);
}

describe("tool names and fields per dialect", () => {
  it.each([
    ["keel", "shell", "shell"],
    ["claude", "shell", "Bash"],
    ["claude", "list_dir", "LS"],
    ["reasonix", "shell", "run_command"],
    ["reasonix", "grep", "search_content"],
    ["tutorial", "shell", "bash"],
    ["cagent", "shell", "shell"],
    ["cagent", "list_dir", "list_directory"],
    ["claude", "mcp__gh__search", "mcp__gh__search"],
  ] as const)("%s sees %s as %s", (dialect, keel, name) => {
    expect(DIALECTS[dialect].toolName(keel)).toBe(name);
    expect(keelToolNameFromAny(name)).toBe(keel);
  });

  it("maps inputs both ways", () => {
    const ctx = { projectDir };
    const claude = DIALECTS.claude.inputToDialect(
      "edit_file",
      { path: "a.ts", old_string: "x", new_string: "y" },
      ctx,
    );
    expect(claude).toEqual({ file_path: "/work/proj/a.ts", old_string: "x", new_string: "y" });
    expect(DIALECTS.cagent.inputToDialect("shell", { command: "ls" }, ctx)).toEqual({ cmd: "ls" });
    expect(
      DIALECTS.reasonix.inputToDialect(
        "edit_file",
        { path: "a", old_string: "x", new_string: "y" },
        ctx,
      ),
    ).toEqual({
      path: "a",
      search: "x",
      replace: "y",
    });
    expect(
      DIALECTS.claude.inputFromDialect(
        "read_file",
        { file_path: "/elsewhere/b.ts" },
        { path: "a.ts" },
        ctx,
      ),
    ).toEqual({
      path: "/elsewhere/b.ts",
    });
    expect(
      DIALECTS.claude.inputFromDialect("shell", { command: "ls", timeout: 10 }, {}, ctx),
    ).toEqual({
      command: "ls",
      timeout_ms: 10,
    });
  });
});

describe("payload on stdin", () => {
  it("keel: the native payload", () => {
    expect(stdinOf("keel")).toMatchObject({
      hook_event_name: "PreToolUse",
      session_id: "s1",
      cwd: projectDir,
      tool_name: "write_file",
      tool_input: { path: "src/a.ts" },
    });
  });

  it("claude: Claude tool names and absolute file_path", () => {
    expect(stdinOf("claude")).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "Write",
      tool_input: { file_path: "/work/proj/src/a.ts", content: "x = 1" },
    });
  });

  it("cagent: snake_case event name and its own tool fields", () => {
    const shell = buildPayload("PreToolUse", {
      projectDir,
      tool: "shell",
      input: { command: "rm -rf /tmp/x" },
    });
    expect(stdinOf("cagent", shell)).toMatchObject({
      hook_event_name: "pre_tool_use",
      tool_name: "shell",
      tool_input: { cmd: "rm -rf /tmp/x" },
    });
  });

  it("reasonix: the camelCase envelope", () => {
    const shell = buildPayload("PostToolUse", {
      projectDir,
      tool: "shell",
      input: { command: "ls" },
      toolResponse: { content: "a\nb", isError: false },
    });
    expect(stdinOf("reasonix", shell)).toEqual({
      event: "PostToolUse",
      cwd: projectDir,
      toolName: "run_command",
      toolArgs: { command: "ls" },
      toolResult: "a\nb",
    });
    const stop = buildPayload("Stop", { projectDir, lastAssistantMessage: "done" });
    expect(stdinOf("reasonix", stop)).toEqual({
      event: "Stop",
      cwd: projectDir,
      lastAssistantText: "done",
    });
  });

  it("is one line", () => {
    const text = shapePayload(DIALECTS.keel, pre, { projectDir }).stdin;
    expect(text.endsWith("\n")).toBe(true);
    expect(text.trimEnd().includes("\n")).toBe(false);
  });
});

describe("environment", () => {
  it("carries the Keel, tutorial and seed-004 variables in the hook's own dialect", () => {
    const now = new Date("2026-01-02T03:04:05.000Z");
    const env = shapePayload(DIALECTS.claude, pre, { projectDir, now }).env;
    expect(env).toMatchObject({
      KEEL_PROJECT_DIR: projectDir,
      CLAUDE_PROJECT_DIR: projectDir,
      KEEL_SESSION_ID: "s1",
      HOOK_EVENT: "PreToolUse",
      HOOK_TOOL_NAME: "Write",
      hook_event_name: "PreToolUse",
      tool_name: "Write",
      session_id: "s1",
      timestamp: "2026-01-02T03:04:05.000Z",
      tool_input_file_path: "/work/proj/src/a.ts",
      tool_input_content: "x = 1",
    });
    expect(JSON.parse(env.HOOK_TOOL_INPUT ?? "")).toEqual({
      file_path: "/work/proj/src/a.ts",
      content: "x = 1",
      nested: { a: 1 },
    });
    // Only scalar top-level fields become tool_input_<key>.
    expect(env.tool_input_nested).toBeUndefined();
    const keel = shapePayload(DIALECTS.keel, pre, { projectDir }).env;
    expect(keel.tool_input_path).toBe("src/a.ts");
    expect(shapePayload(DIALECTS.cagent, pre, { projectDir }).env.HOOK_EVENT).toBe("pre_tool_use");
  });

  it("puts tool output in HOOK_TOOL_OUTPUT", () => {
    const post = buildPayload("PostToolUse", {
      projectDir,
      tool: "shell",
      input: { command: "ls" },
      toolResponse: "files",
    });
    expect(shapePayload(DIALECTS.tutorial, post, { projectDir }).env).toMatchObject({
      HOOK_TOOL_NAME: "bash",
      HOOK_TOOL_OUTPUT: "files",
    });
  });

  it("strips NUL bytes and caps huge values", () => {
    const big = buildPayload("PreToolUse", {
      projectDir,
      tool: "write_file",
      input: { path: "a\0b", content: "y".repeat(200_000) },
    });
    const env = shapePayload(DIALECTS.keel, big, { projectDir }).env;
    expect(env.tool_input_path).toBe("ab");
    expect(env.tool_input_content?.length).toBe(32 * 1024);
  });
});
