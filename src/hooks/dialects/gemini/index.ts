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
import { isRecord } from "../../util.js";
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

/**
 * Gemini CLI timeouts are milliseconds (Keel's handler timeouts are seconds), and it trims a
 * matcher before reading it (`" run_shell_command "` matches).
 */
function geminiHooks<T extends { matcher: string | undefined; handler: { timeout?: number } }>(
  hooks: T[],
): T[] {
  for (const h of hooks) {
    if (h.handler.timeout !== undefined) h.handler.timeout /= 1000;
    if (h.matcher !== undefined) h.matcher = h.matcher.trim();
  }
  return hooks;
}

/**
 * Hooks of a group with `"sequential": true` run one after another, in order; a block does not
 * stop the rest (measured, 0.61: compat:gemini "order:" cases). Other groups' hooks run alongside.
 */
function sequentialGroups<T extends { at: readonly (string | number)[] }>(
  hooks: T[],
  settings: unknown,
): (T & { sequentialGroup?: string })[] {
  return hooks.map((h) => {
    // A handler sits at hooks.<Event>[group].hooks[i]; its group is two steps up.
    let group: unknown = settings;
    for (const key of h.at.slice(0, -2)) {
      group = isRecord(group)
        ? group[String(key)]
        : Array.isArray(group)
          ? group[Number(key)]
          : undefined;
    }
    return isRecord(group) && group.sequential === true
      ? { ...h, sequentialGroup: h.at.slice(0, -2).join("/") }
      : h;
  });
}

/** Fields of Keel's native payload that Gemini CLI's hooks never get (measured, 0.61). */
const NOT_IN_GEMINI = [
  "prompt_id",
  "duration_ms",
  "effort",
  "permission_mode",
  "tool_use_id",
] as const;

const NO_MATCHER_EVENTS: ReadonlySet<HookEventName> = new Set(["UserPromptSubmit", "Stop"]);

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
    return { ...read, hooks: sequentialGroups(geminiHooks(read.hooks), read.settings) };
  },
  ...createToolMapper(GEMINI_TOOLS, { absolutePaths: true }),
  eventName: (event) => NAMES.get(event) ?? event,
  eventFromName: (name) => EVENTS[name],
  stdinObject(payload, shaped) {
    const out = nativeStdinObject(payload, shaped, NAMES.get(payload.hook_event_name) ?? "");
    for (const key of NOT_IN_GEMINI) delete out[key];
    out.timestamp = new Date().toISOString();
    // AfterAgent repeats the prompt and names the answer prompt_response: every answer since
    // the prompt when a Stop hook made the agent go on (measured, 0.61).
    if ("last_assistant_message" in out) {
      if (shaped.prompt !== undefined) out.prompt = shaped.prompt;
      out.prompt_response =
        shaped.answers && shaped.answers.length > 0
          ? shaped.answers.join("\n")
          : out.last_assistant_message;
      delete out.last_assistant_message;
    }
    // A headless run ends with reason "exit" in Gemini CLI; Keel says "other".
    if (out.reason === "other" && payload.hook_event_name === "SessionEnd") out.reason = "exit";
    if ("tool_response" in out && shaped.toolResponse === undefined) {
      const text = shaped.toolOutput ?? "";
      out.tool_response = { llmContent: text, returnDisplay: text };
    }
    return out;
  },
  env: (payload, ctx) => ({
    GEMINI_PROJECT_DIR: ctx.projectDir,
    GEMINI_CWD: ctx.projectDir,
    GEMINI_SESSION_ID: payload.session_id,
  }),
  matcherStyle: "anchored",
  matchesNonToolEvents: true,
  // Gemini CLI runs BeforeAgent and AfterAgent hooks whatever their matcher says.
  ignoresMatcherOn: NO_MATCHER_EVENTS,
  defaultTimeoutSec: () => 60,
  timeoutUnit: "ms",
  exitTable: geminiExitTable,
  parsesJson: true,
});
