/**
 * The Reasonix 1.x payload as Reasonix 1.38.11 sends it (measured with `npm run
 * compat:reasonix`; compat/README.md): `{event, sessionId, cwd}` plus each event's fields, 1.x
 * tool names and input fields, and each tool's own `toolResult` text (left out when empty).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { looksLikeReasonix1, reasonix1Dialect } from "../../src/hooks/dialects/reasonix1/index.js";
import { shapePayload } from "../../src/hooks/dialects/shape.js";
import type { AnyEventPayload, HookEventName } from "../../src/hooks/events.js";
import { buildPayload, type PayloadOptions } from "../../src/hooks/payload.js";
import { toolCatalog } from "../../src/hooks/tool-descriptor.js";
import { BUILTIN_TOOL_HOOK_FACTS } from "../../src/tools/hook-facts.js";

const projectDir = "/tmp/rx1-project";
const tools = toolCatalog(BUILTIN_TOOL_HOOK_FACTS);
function seen(event: HookEventName, o: Partial<PayloadOptions> = {}): Record<string, unknown> {
  const payload = buildPayload(event, { projectDir, sessionId: "s1", ...o }) as AnyEventPayload;
  return JSON.parse(shapePayload(reasonix1Dialect, payload, { projectDir, tools }).stdin);
}

describe("Reasonix 1.x payload", () => {
  it("every event carries {event, sessionId, cwd} and its own fields, nothing of Claude's", () => {
    expect(seen("SessionStart")).toEqual({
      event: "SessionStart",
      sessionId: "s1",
      cwd: projectDir,
      source: "startup",
    });
    expect(seen("UserPromptSubmit", { prompt: "hi" })).toMatchObject({ prompt: "hi" });
    expect(seen("SessionEnd", { reason: "other" })).toEqual({
      event: "SessionEnd",
      sessionId: "s1",
      cwd: projectDir,
      reason: "other",
    });
    const stop = seen("Stop", { lastAssistantMessage: "done" });
    expect(stop).toMatchObject({ event: "Stop", lastAssistantText: "done" });
    expect(stop).not.toHaveProperty("stop_hook_active");
  });

  it("bash: raw output as toolResult, none when the output is empty", () => {
    const cmd = { tool: "shell", input: { command: "echo hi" } };
    const ran = seen("PostToolUse", {
      ...cmd,
      toolResponse: { content: "hi\n[exit code: 0]", stdout: "hi\n", stderr: "", exitCode: 0 },
    });
    expect(ran).toMatchObject({ toolName: "bash", toolArgs: { command: "echo hi" } });
    expect(ran.toolResult).toBe("hi\n");
    const quiet = seen("PostToolUse", {
      ...cmd,
      toolResponse: { content: "[exit code: 0]", stdout: "", stderr: "", exitCode: 0 },
    });
    expect(quiet).not.toHaveProperty("toolResult");
  });

  it("write, read and edit: 1.x names, old_string/new_string, Reasonix's result texts", () => {
    const abs = join(projectDir, "a.txt");
    const write = seen("PostToolUse", {
      tool: "write_file",
      input: { path: "a.txt", content: "one\ntwo\n" },
      toolResponse: { content: "Created a.txt", absolutePath: abs },
    });
    expect(write.toolResult).toBe(`wrote 8 bytes to ${abs}`);
    const read = seen("PostToolUse", {
      tool: "read_file",
      input: { path: "a.txt" },
      toolResponse: { content: "1\tone\n2\ttwo", text: "one\ntwo\n", absolutePath: abs },
    });
    expect(read.toolResult).toBe("1→one\n2→two\n");
    const edit = seen("PostToolUse", {
      tool: "edit_file",
      input: { path: "a.txt", old_string: "two", new_string: "three" },
      toolResponse: { content: "Edited a.txt", originalFile: "one\ntwo\n", absolutePath: abs },
    });
    expect(edit.toolArgs).toEqual({ path: "a.txt", old_string: "two", new_string: "three" });
    expect(edit.toolResult).toBe(
      `edited ${abs}\nActual replacement receipt after write:\n@@ replacement 1 of 1 (1 occurrence(s)) @@\n-two\n+three\n`,
    );
  });

  it("a file is 1.x unless it names a tool only 0.x has", () => {
    expect(looksLikeReasonix1({ Stop: [{ command: "x" }] })).toBe(true);
    expect(looksLikeReasonix1({ PreToolUse: [{ match: "bash", command: "x" }] })).toBe(true);
    expect(looksLikeReasonix1({ PreToolUse: [{ match: "run_command", command: "x" }] })).toBe(
      false,
    );
    expect(looksLikeReasonix1({ PreToolUse: [{ match: "search_files|write_file" }] })).toBe(false);
  });
});
