/**
 * The Gemini CLI dialect (`.gemini/settings.json`, `~/.gemini/settings.json`): Claude-like
 * nested groups, its own event names (BeforeTool, AfterTool, BeforeAgent, …) and tool names
 * (run_shell_command, replace, grep_search …), timeouts in milliseconds, stdout JSON honoured
 * at any exit code, `hookSpecificOutput.tool_input` rewrites the call.
 */
import { join } from "node:path";
import { readJsonHooksFile } from "../../config/parse.js";
import { readNativeHooks } from "../../config/read-native.js";
import { hooksFileSchema } from "../../config/schema.js";
import type { HookEventName } from "../../events.js";
import { nativeStdinObject } from "../shared/native.js";
import { createToolMapper, type ToolTable } from "../shared/tool-map.js";
import { defineDialect } from "../types.js";
import { geminiExitTable } from "./exit.js";

/** Keel tool → Gemini CLI tool (names and parameters of Gemini CLI 0.61). */
export const GEMINI_TOOLS: ToolTable = {
  shell: { name: "run_shell_command" },
  read_file: { name: "read_file", fields: { path: "file_path", offset: "start_line" } },
  write_file: { name: "write_file", fields: { path: "file_path" } },
  edit_file: { name: "replace", fields: { path: "file_path", replace_all: "allow_multiple" } },
  glob: { name: "glob", fields: { path: "dir_path" } },
  grep: { name: "grep_search", fields: { path: "dir_path", glob: "include_pattern" } },
  list_dir: { name: "list_directory", fields: { path: "dir_path" } },
};

/** Gemini event → Keel event. */
const EVENTS: Readonly<Record<string, HookEventName>> = {
  SessionStart: "SessionStart",
  SessionEnd: "SessionEnd",
  BeforeAgent: "UserPromptSubmit",
  AfterAgent: "Stop",
  BeforeTool: "PreToolUse",
  AfterTool: "PostToolUse",
  PreCompress: "PreCompact",
  Notification: "Notification",
};
const NAMES = new Map<HookEventName, string>(Object.entries(EVENTS).map(([g, k]) => [k, g]));

/** Gemini CLI timeouts are milliseconds; Keel's handler timeouts are seconds. */
function msToSeconds<T extends { handler: { timeout?: number } }>(hooks: T[]): T[] {
  for (const h of hooks) if (h.handler.timeout !== undefined) h.handler.timeout /= 1000;
  return hooks;
}

/** Hooks from Gemini CLI's settings files. */
export const geminiDialect = defineDialect({
  name: "gemini",
  label: "Gemini CLI",
  files: (paths) => [
    { path: join(paths.homeDir, ".gemini", "settings.json"), scope: "user" },
    { path: join(paths.projectDir, ".gemini", "settings.json"), scope: "project" },
  ],
  compatSwitch: true,
  read(text, ctx) {
    const read = readJsonHooksFile(text, ctx, hooksFileSchema(), (hooks, c) =>
      readNativeHooks(hooks, c, (name) => EVENTS[name]),
    );
    return { ...read, hooks: msToSeconds(read.hooks) };
  },
  ...createToolMapper(GEMINI_TOOLS, { absolutePaths: true }),
  eventName: (event) => NAMES.get(event) ?? event,
  eventFromName: (name) => EVENTS[name],
  stdinObject(payload, shaped) {
    const out = nativeStdinObject(payload, shaped, NAMES.get(payload.hook_event_name) ?? "");
    out.timestamp = new Date().toISOString();
    return out;
  },
  env: (_payload, ctx) => ({ GEMINI_PROJECT_DIR: ctx.projectDir }),
  matcherStyle: "anchored",
  matchesNonToolEvents: true,
  defaultTimeoutSec: () => 60,
  timeoutUnit: "ms",
  exitTable: geminiExitTable,
  parsesJson: true,
});
