/**
 * The stdin object of a Codex hook, as codex 0.171 writes it (measured by `npm run
 * compat:codex`; Codex's input schemas refuse any other field):
 * - every event: `session_id, transcript_path, cwd, hook_event_name, model, permission_mode`;
 * - every event but SessionStart: `turn_id` (Keel's `prompt_id`, the id of the user turn);
 * - SessionStart `source`; UserPromptSubmit `prompt`; Stop `stop_hook_active`,
 *   `last_assistant_message`; tool events `tool_name, tool_input, tool_use_id`, and
 *   PostToolUse `tool_response`: the output text as the model got it (a JSON string);
 * - subagent payloads `agent_id, agent_type`.
 * Keel's own fields (`prompt_id`, `duration_ms`, `effort`, structured tool responses) are
 * left out (Codex reports no effort to hooks). `model` is the model the session asks.
 */
import type { AnyEventPayload, HookEventName } from "../../events.js";
import type { ShapedTool } from "../types.js";

/** Fields each event adds to the common envelope, in Codex's order. */
const EVENT_FIELDS: Partial<Record<HookEventName, readonly string[]>> = {
  SessionStart: ["source"],
  SessionEnd: ["reason"],
  UserPromptSubmit: ["prompt"],
  PreToolUse: ["tool_name", "tool_input", "tool_use_id"],
  PermissionRequest: ["tool_name", "tool_input", "tool_use_id"],
  PostToolUse: ["tool_name", "tool_input", "tool_response", "tool_use_id"],
  Stop: ["stop_hook_active", "last_assistant_message"],
  SubagentStart: ["agent_id", "agent_type"],
  SubagentStop: ["agent_id", "agent_type", "stop_hook_active", "last_assistant_message"],
  PreCompact: ["trigger", "custom_instructions"],
  PostCompact: ["trigger"],
};

/** The object written to a Codex hook's stdin. */
export function codexStdinObject(
  payload: AnyEventPayload,
  shaped: ShapedTool,
): Record<string, unknown> {
  const p: Record<string, unknown> = { ...payload };
  const event = payload.hook_event_name;
  const out: Record<string, unknown> = { session_id: payload.session_id };
  if (event !== "SessionStart" && typeof p.prompt_id === "string") out.turn_id = p.prompt_id;
  out.transcript_path = payload.transcript_path;
  out.cwd = payload.cwd;
  out.hook_event_name = event;
  if (typeof p.model === "string") out.model = p.model;
  out.permission_mode = payload.permission_mode;
  for (const field of EVENT_FIELDS[event] ?? []) {
    if (field === "tool_name" && shaped.toolName !== undefined) out.tool_name = shaped.toolName;
    else if (field === "tool_input" && shaped.toolInput !== undefined) {
      out.tool_input = shaped.toolInput;
    } else if (field === "tool_response") {
      // Codex hands PostToolUse a string, not a structure: for Bash the command's raw output.
      const text = shaped.toolOutput ?? "";
      out.tool_response = shaped.toolName === "Bash" ? rawShellOutput(text) : text;
    } else if (p[field] !== undefined) out[field] = p[field];
  }
  return out;
}

/** Keel's shell result (`<output>[exit code: N]`, `(no output)` when empty) as the raw output
 *  Codex gives Bash hooks (measured: `"hi\n"`, and `""` for a silent `exit 3`). */
export function rawShellOutput(text: string): string {
  const m = /^([\s\S]*?)\[exit code: -?\d+\]$/.exec(text);
  if (!m) return text;
  const body = m[1] ?? "";
  return body.replace(/\n$/, "") === "(no output)" ? "" : body;
}
