/**
 * The Gemini CLI dialect (`.gemini/settings.json`, `~/.gemini/settings.json`): Claude-like
 * nested groups, its own event names (BeforeTool, AfterTool, BeforeAgent, …) and tool names
 * (run_shell_command, replace, grep_search …), timeouts in milliseconds, stdout JSON honoured
 * at any exit code, `hookSpecificOutput.tool_input` rewrites the call.
 */
import { childPath, isRecord } from "../../../base/index.js";
import { readJsonHooksFile } from "../../config/parse.js";
import { readNativeHooks } from "../../config/read-native.js";
import { hooksFileSchema } from "../../config/schema.js";
import type { HookEventName } from "../../events.js";
import type { HandlerConfig } from "../../types.js";
import {
  geminiEditResponse,
  geminiWriteResponse,
  qwenReadResponse,
  qwenShellResponse,
} from "../qwen/responses.js";
import { expandNamedVars, markSequential, readNameAndEnv } from "../shared/gemini-family.js";
import { nativeStdinObject } from "../shared/native.js";
import { createToolMapper, type ToolTable } from "../shared/tool-map.js";
import { defineDialect } from "../types.js";
import { geminiExitTable } from "./exit.js";
import { geminiSessionState } from "./session.js";

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

/** Fields of Keel's native payload that Gemini CLI's hooks never get (measured, 0.61). */
const NOT_IN_GEMINI = [
  "prompt_id",
  "duration_ms",
  "effort",
  "model",
  "permission_mode",
  "tool_use_id",
  "context_usage",
  "context_limit",
  "input_tokens",
] as const;

/** Events Gemini CLI fires without a matcher context, so every hook runs (BeforeAgent,
 *  AfterAgent, Notification: its HookEventHandler passes no toolName or trigger). */
const NO_MATCHER_EVENTS: ReadonlySet<HookEventName> = new Set([
  "UserPromptSubmit",
  "Stop",
  "Notification",
]);

/** A headless run ends with reason "exit" in Gemini CLI; Keel says "other". */
function sessionEndReason(reason: string): string {
  return reason === "other" ? "exit" : reason;
}

/** Variables Gemini CLI writes into the command text (its hookRunner's expandCommand;
 *  GEMINI_PLANS_DIR is not set by Keel, so it is left alone). */
const COMMAND_VARS = [
  "GEMINI_PROJECT_DIR",
  "GEMINI_CWD",
  "GEMINI_SESSION_ID",
  "CLAUDE_PROJECT_DIR",
];

/**
 * `hooksConfig` in a Gemini settings file (0.61's settings schema and HookRegistry):
 * `enabled: false` means no hook system at all; `disabled` lists hooks by `name`, or by command
 * when they have none, that are registered but never run.
 */
function hooksConfigDisables(settings: unknown) {
  const config = isRecord(settings) ? settings.hooksConfig : undefined;
  if (!isRecord(config)) return [];
  const out: { setting: string; matches?: (h: HandlerConfig) => boolean }[] = [];
  if (config.enabled === false) out.push({ setting: '"hooksConfig.enabled": false' });
  const names = Array.isArray(config.disabled)
    ? new Set(config.disabled.filter((n): n is string => typeof n === "string"))
    : new Set<string>();
  if (names.size > 0) {
    out.push({
      setting: '"hooksConfig.disabled"',
      matches: (h) => {
        const name = h.name ?? (h.type === "command" ? h.command : undefined);
        return name !== undefined && names.has(name);
      },
    });
  }
  return out;
}

/** Hooks from Gemini CLI's settings files. */
export const geminiDialect = defineDialect({
  name: "gemini",
  label: "Gemini CLI",
  files: (paths) => [
    { path: childPath(paths.homeDir, ".gemini", "settings.json"), scope: "user" },
    { path: childPath(paths.projectDir, ".gemini", "settings.json"), scope: "project" },
  ],
  compatSwitch: true,
  read(text, ctx) {
    const read = readJsonHooksFile(text, ctx, hooksFileSchema(), (hooks, c) =>
      readNativeHooks(hooks, c, (name) => EVENTS[name]),
    );
    const problems = [...read.problems];
    const hooks = readNameAndEnv(geminiHooks(read.hooks), read.settings, ctx, problems);
    return { ...read, problems, hooks: markSequential(hooks, read.settings) };
  },
  ...createToolMapper(GEMINI_TOOLS, { absolutePaths: true }),
  // Gemini CLI answers shell and read_file as Qwen Code does (a fork of it); writes add fields.
  toolResponses: {
    shell: qwenShellResponse,
    read_file: qwenReadResponse,
    write_file: geminiWriteResponse,
    edit_file: geminiEditResponse,
  },
  eventName: (event) => NAMES.get(event) ?? event,
  eventFromName: (name) => EVENTS[name],
  sessionState: geminiSessionState,
  stdinObject(payload, shaped) {
    const out = nativeStdinObject(payload, shaped, NAMES.get(payload.hook_event_name) ?? "");
    for (const key of NOT_IN_GEMINI) delete out[key];
    out.timestamp = new Date().toISOString();
    // AfterAgent repeats the prompt and names the answer prompt_response: every answer since
    // the prompt when a Stop hook made the agent go on (measured, 0.61; session.ts keeps them).
    if ("last_assistant_message" in out) {
      if (shaped.prompt !== undefined) out.prompt = shaped.prompt;
      out.prompt_response =
        shaped.answers && shaped.answers.length > 0
          ? shaped.answers.join("\n")
          : out.last_assistant_message;
      delete out.last_assistant_message;
    }
    if (payload.hook_event_name === "SessionEnd" && typeof out.reason === "string") {
      out.reason = sessionEndReason(out.reason);
    }
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
  disables: hooksConfigDisables,
  expandCommand: (command, env) => expandNamedVars(command, COMMAND_VARS, env),
  // Tool matchers: `new RegExp(m).test(toolName)`, found anywhere in the name; text that is no
  // valid regex must equal the name. SessionStart, SessionEnd, PreCompress: exact strings.
  matcherStyle: "search",
  triggerMatcherStyle: "exact",
  triggerValue: (event, value) => (event === "SessionEnd" ? sessionEndReason(value) : value),
  matchesNonToolEvents: true,
  // Gemini CLI runs BeforeAgent, AfterAgent and Notification hooks whatever their matcher says.
  ignoresMatcherOn: NO_MATCHER_EVENTS,
  defaultTimeoutSec: () => 60,
  timeoutUnit: "ms",
  exitTable: geminiExitTable,
  parsesJson: true,
});
