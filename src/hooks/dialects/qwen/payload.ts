/**
 * The stdin object Qwen Code's hooks read: the native payload with Qwen's tool names, a
 * `timestamp`, Qwen's approval-mode names in `permission_mode` (only on the events Qwen sends
 * it with), `tool_response` as Qwen's `{llmContent, returnDisplay}`, and no Claude-only fields.
 * Qwen Code 0.24's additions are kept or added (0.15 hooks ignore fields they do not read):
 * `prompt_id` (every event after the first prompt; Qwen's `<session_id>########<n>`,
 * ./session.ts), `tool_call_id` (the model's call id, which
 * Keel's `tool_use_id` already is), `duration_ms` after a tool, `model` on SessionStart only,
 * PostToolUseFailure's `error` of a failed shell command in Qwen's words (qwenShellErrorText),
 * `submitted_prompt` (the text the user submitted; Qwen leaves it out when blank) on
 * UserPromptSubmit, and on Stop `background_tasks` (Qwen's background sub-agents) and `crons`
 * (its scheduled prompts): always empty lists here, since Keel has neither.
 */
import type { AnyEventPayload, HookEventName } from "../../events.js";
import { nativeStdinObject } from "../shared/native.js";
import type { ShapedTool } from "../types.js";
import { qwenPromptId } from "./session.js";

/** Keel permission mode → Qwen Code approval mode. */
const APPROVAL_MODES: Readonly<Record<string, string>> = {
  default: "default",
  acceptEdits: "auto-edit",
  plan: "plan",
  bypassPermissions: "yolo",
};

/** Events whose Qwen payload carries `permission_mode`. */
const WITH_PERMISSION_MODE: ReadonlySet<HookEventName> = new Set([
  "SessionStart",
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "PermissionRequest",
  "UserPromptSubmit",
  "Stop",
  "SubagentStart",
  "SubagentStop",
]);

/** Fields Keel's native payload has and Qwen Code's does not. */
const NOT_IN_QWEN = ["effort"] as const;

/** The object written to a Qwen hook's stdin. */
export function qwenStdinObject(
  payload: AnyEventPayload,
  shaped: ShapedTool,
): Record<string, unknown> {
  const out = nativeStdinObject(payload, shaped, payload.hook_event_name);
  for (const key of NOT_IN_QWEN) delete out[key];
  out.timestamp = new Date().toISOString();
  // Qwen 0.24 names the model only when the session starts.
  if (payload.hook_event_name !== "SessionStart") delete out.model;
  if (typeof out.prompt_id === "string" && shaped.turn !== undefined) {
    out.prompt_id = qwenPromptId(payload.session_id, shaped.turn);
  }
  if (typeof out.tool_use_id === "string") out.tool_call_id = out.tool_use_id;
  if (payload.hook_event_name === "UserPromptSubmit") {
    const prompt = out.prompt;
    if (typeof prompt === "string" && prompt.trim() !== "") out.submitted_prompt = prompt;
  }
  const input = out.tool_input as { command?: unknown } | undefined;
  if (
    payload.hook_event_name === "PostToolUseFailure" &&
    out.tool_name === "run_shell_command" &&
    typeof out.error === "string" &&
    typeof input?.command === "string"
  ) {
    out.error = qwenShellErrorText(input.command, out.error);
  }
  if (payload.hook_event_name === "Stop") {
    out.background_tasks = [];
    out.crons = [];
  }
  const mode = out.permission_mode;
  if (!WITH_PERMISSION_MODE.has(payload.hook_event_name)) delete out.permission_mode;
  else if (typeof mode === "string") out.permission_mode = APPROVAL_MODES[mode] ?? mode;
  if ("tool_response" in out && shaped.toolResponse === undefined) {
    // Tools without a Qwen shape of their own (glob, grep, MCP tools): Qwen's generic result.
    const text = shaped.toolOutput ?? "";
    out.tool_response = { llmContent: text, returnDisplay: text };
  }
  return out;
}

/**
 * Keel's failed shell output (`<output>\n[exit code: N]`) as Qwen Code 0.24 words a failed
 * `run_shell_command` in PostToolUseFailure's `error` (the text its model got; measured:
 * `Command: echo oops; exit 3\nDirectory: (root)\nOutput: oops\nError: (none)\nExit Code: 3\n
 * Signal: (none)\nProcess Group PGID: (none)`). Other failures keep Keel's words.
 */
export function qwenShellErrorText(command: string, text: string): string {
  const m = /^([\s\S]*?)\n?\[exit code: (\d+)\]$/.exec(text);
  if (!m) return text;
  const output = m[1] === "(no output)" ? "" : (m[1] ?? "").trim();
  return [
    `Command: ${command}`,
    "Directory: (root)",
    `Output: ${output || "(empty)"}`,
    "Error: (none)",
    `Exit Code: ${m[2]}`,
    "Signal: (none)",
    "Process Group PGID: (none)",
  ].join("\n");
}
