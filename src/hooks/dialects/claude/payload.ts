/**
 * What a Claude Code hook sees beyond the native payload, as Claude Code 2.1 sends it (measured
 * headless with `npm run compat:claude`): no permission_mode on SessionStart/SessionEnd, Stop's
 * background_tasks and session_crons, Edit's explicit replace_all, `effort` only on the events
 * fired in a tool-use context and no `model`, a failed Bash call's error
 * as `Exit code N\n<output>`, and the CLAUDECODE / CLAUDE_CODE_* / CLAUDE_ENV_FILE variables.
 */
import type { AnyEventPayload, EventPayloadFields, HookEventName } from "../../events.js";
import { nativeExitTable } from "../shared/exit-native.js";
import { nativeStdinObject } from "../shared/native.js";
import type { DialectContext, ExitTable, ShapedTool } from "../types.js";
import { claudeTools } from "./tools.js";

/** Events whose payload carries no permission_mode in Claude Code. */
const NO_PERMISSION_MODE: ReadonlySet<HookEventName> = new Set(["SessionStart", "SessionEnd"]);

/**
 * Events whose payload carries `effort: {level}` in Claude Code 2.1.332: those fired "within a
 * tool-use context" (its hook input schema; measured on PreToolUse, PostToolUse, Stop by
 * compat:claude), never the session-lifecycle ones (SessionStart, UserPromptSubmit, SessionEnd).
 */
const EFFORT_EVENTS: ReadonlySet<HookEventName> = new Set([
  "PreToolUse",
  "PermissionRequest",
  "PermissionDenied",
  "PostToolUse",
  "PostToolUseFailure",
  "PostToolBatch",
  "Stop",
  "SubagentStop",
]);

/** Events whose hooks get CLAUDE_ENV_FILE: Claude Code 2.1.332's four (docs/hooks.md). */
const ENV_FILE_EVENTS: ReadonlySet<HookEventName> = new Set([
  "SessionStart",
  "Setup",
  "CwdChanged",
  "FileChanged",
]);

/**
 * Claude Code 2.1.332's SessionEnd reasons are clear, resume, logout, prompt_input_exit and
 * other (its hook input schema): a person leaving the prompt (`/exit`, Ctrl+D) is
 * `prompt_input_exit`, which Keel calls `exit`.
 */
export function claudeSessionEndReason(reason: string): string {
  return reason === "exit" ? "prompt_input_exit" : reason;
}

/** Stop fields Keel sends as Qwen Code 0.24 does, which Claude Code's Stop does not carry. */
const QWEN_STOP_FIELDS = ["context_usage", "context_limit", "input_tokens"] as const;

/** The stdin object of a Claude Code hook. */
export function claudeStdinObject(
  payload: AnyEventPayload,
  shaped: ShapedTool,
): Record<string, unknown> {
  const out = nativeStdinObject(payload, shaped, payload.hook_event_name);
  const event = payload.hook_event_name;
  if (NO_PERMISSION_MODE.has(event)) delete out.permission_mode;
  // `claude -p` sends no `model` in any payload (measured, 2.1.332).
  delete out.model;
  // Qwen Code's Stop fields (context_usage, context_limit, input_tokens): not Claude Code's.
  for (const key of QWEN_STOP_FIELDS) delete out[key];
  if (!EFFORT_EVENTS.has(event)) delete out.effort;
  if (event === "SessionEnd" && typeof out.reason === "string") {
    out.reason = claudeSessionEndReason(out.reason);
  }
  if (event === "Stop") {
    // Keel has no background tasks or cron jobs a Stop hook could wait for.
    out.background_tasks ??= [];
    out.session_crons ??= [];
  }
  const input = out.tool_input;
  if (out.tool_name === "Edit" && isObject(input) && input.replace_all === undefined) {
    out.tool_input = { ...input, replace_all: false };
  }
  if (event === "PostToolUseFailure" && out.tool_name === "Bash" && typeof out.error === "string") {
    out.error = bashErrorText(out.error);
  }
  if (event === "PermissionRequest") {
    out.permission_suggestions = claudeSuggestions(payload.permission_suggestions);
  }
  return out;
}

/** Keel's suggested rules with Claude Code's tool names (`shell` → `Bash`, …). */
function claudeSuggestions(
  suggestions: EventPayloadFields["PermissionRequest"]["permission_suggestions"],
): unknown[] {
  return suggestions.map((s) => ({
    ...s,
    rules: s.rules.map((r) => ({ ...r, toolName: claudeTools.toolName(r.toolName) })),
  }));
}

/** Keel's failed shell output (`<output>\n[exit code: N]`) in Claude's words. */
export function bashErrorText(text: string): string {
  const m = /^([\s\S]*?)\n?\[exit code: (\d+)\]$/.exec(text);
  if (!m) return text;
  const body = m[1] === "(no output)" ? "" : (m[1] ?? "").trim();
  return body ? `Exit code ${m[2]}\n${body}` : `Exit code ${m[2]}`;
}

/** Claude Code's own variables for its hooks. */
export function claudeEnv(payload: AnyEventPayload, ctx: DialectContext): Record<string, string> {
  const env: Record<string, string> = {
    CLAUDECODE: "1",
    CLAUDE_CODE_ENTRYPOINT: ctx.session?.headless === false ? "cli" : "sdk-cli",
    CLAUDE_CODE_SESSION_ID: payload.session_id,
    // Claude Code 2.1.332 gives every child these (read from its binary's child-env builder):
    // the child marker, whether a person attends the session (TUI) and the agent's own pid.
    CLAUDE_CODE_CHILD_SESSION: "1",
    CLAUDE_CODE_SESSION_ATTENDED: ctx.session?.headless === false ? "1" : "0",
    CLAUDE_PID: String(process.pid),
  };
  const file = ctx.session?.envFile;
  if (file && ENV_FILE_EVENTS.has(payload.hook_event_name)) env.CLAUDE_ENV_FILE = file;
  return env;
}

/**
 * Claude Code's exit table: the native one, except that on exit 2 it ignores JSON on stdout
 * (the message is stderr; a JSON decision or context does not apply). On other non-zero codes
 * Claude Code 2.1 does read it: a JSON deny with exit 1 denies (measured by compat:claude).
 */
export const claudeExitTable: ExitTable = {
  name: "claude",
  gating: nativeExitTable.gating,
  decide(ctx, run) {
    if (run.code === 2) return nativeExitTable.decide(ctx, { ...run, parsed: { kind: "none" } });
    return nativeExitTable.decide(ctx, run);
  },
};

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
