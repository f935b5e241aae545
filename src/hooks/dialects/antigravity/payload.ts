/**
 * The stdin object of an Antigravity hook. Antigravity's payloads are camelCase and share no
 * field with Claude Code's (captured agy 1.0.x stdin, docs/hooks.md "Antigravity"):
 * - every event: `conversationId`, `workspacePaths`, `transcriptPath`, `artifactDirectoryPath`;
 * - PreToolUse: `toolCall: {name, args}` (PascalCase args) and `stepIdx`;
 * - PostToolUse: `stepIdx` and `error` (no `toolCall`: agy does not repeat it; Keel adds it,
 *   since a PostToolUse hook cannot otherwise tell which call finished — an extra field its
 *   scripts ignore);
 * - PreInvocation (Keel's UserPromptSubmit): `invocationNum` (0: a prompt's first model call,
 *   the only one Keel fires it for) and `initialNumSteps`;
 * - Stop: `executionNum`, `terminationReason`, `error`, `fullyIdle`.
 * Steps are numbered as agy numbers them: the prompt is a step, and so is each tool call.
 */
import { dirname } from "node:path";
import { isRecord } from "../../../base/index.js";
import type { AnyEventPayload } from "../../events.js";
import type { DialectSessionState, ShapedTool } from "../types.js";

/**
 * Step numbers across one session's firings: the prompt is a step and so is each tool call,
 * as agy numbers them. Gives `turn` (prompts so far) and `step` (a tool call's own step, or
 * the steps taken so far on other events).
 */
export function antigravitySessionState(): DialectSessionState {
  let steps = 0;
  let prompts = 0;
  const byCall = new Map<string, number>();
  const callId = (p: AnyEventPayload) => {
    const id = (p as { tool_use_id?: unknown }).tool_use_id;
    return typeof id === "string" ? id : undefined;
  };
  return {
    observe(payload) {
      const event = payload.hook_event_name;
      if (event === "UserPromptSubmit") {
        prompts += 1;
        steps += 1;
      } else if (event === "PreToolUse") {
        const id = callId(payload);
        if (id !== undefined && !byCall.has(id)) {
          byCall.set(id, steps);
          steps += 1;
        }
      }
    },
    shaped(payload) {
      const id = callId(payload);
      const own = id === undefined ? undefined : byCall.get(id);
      return { turn: prompts, step: own ?? steps };
    },
  };
}

/** The `error` of a finished call: "" on success, `exit status N` for a failed command. */
function callError(payload: Record<string, unknown>): string {
  if (typeof payload.error === "string") return payload.error;
  const response = payload.tool_response;
  if (!isRecord(response) || response.isError !== true) return "";
  const details = isRecord(response.details) ? response.details : {};
  const code = details.exitCode ?? details.exit_code;
  if (typeof code === "number") return `exit status ${code}`;
  return typeof response.content === "string" ? response.content : "error";
}

/** The object written to an Antigravity hook's stdin. */
export function antigravityStdinObject(
  payload: AnyEventPayload,
  shaped: ShapedTool,
): Record<string, unknown> {
  const p = payload as unknown as Record<string, unknown>;
  const step = shaped.step ?? 0;
  const out: Record<string, unknown> = {};
  switch (payload.hook_event_name) {
    case "PreToolUse":
      out.toolCall = { name: shaped.toolName, args: shaped.toolInput ?? {} };
      out.stepIdx = step;
      break;
    case "PostToolUse":
    case "PostToolUseFailure":
      out.toolCall = { name: shaped.toolName, args: shaped.toolInput ?? {} };
      out.stepIdx = step;
      out.error = callError(p);
      break;
    case "UserPromptSubmit":
      out.invocationNum = 0;
      out.initialNumSteps = step;
      break;
    case "Stop":
      out.executionNum = shaped.turn ?? 0;
      out.terminationReason = "model_stop";
      out.error = "";
      out.fullyIdle = true;
      break;
    default:
      break;
  }
  out.conversationId = payload.session_id;
  out.workspacePaths = [payload.cwd];
  out.transcriptPath = payload.transcript_path;
  // agy's per-conversation artifact folder; Keel's nearest is the session's own folder.
  out.artifactDirectoryPath = payload.transcript_path ? dirname(payload.transcript_path) : "";
  return out;
}
