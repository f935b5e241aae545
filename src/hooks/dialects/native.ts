/**
 * Pieces shared by the dialects whose payload is Keel's native (Claude Code compatible) shape:
 * keel, claude, cagent and tutorial.
 */

import type { AnyEventPayload, HookEventName, ToolInput } from "../events.js";
import { DEFAULT_TIMEOUT_SEC } from "../events.js";
import type { HandlerType } from "../types.js";

/** The native stdin object with the dialect's tool name, input and event name swapped in. */
export function nativeStdinObject(
  payload: AnyEventPayload,
  shaped: { toolName?: string; toolInput?: ToolInput },
  eventName: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...payload, hook_event_name: eventName };
  if (shaped.toolName !== undefined) out.tool_name = shaped.toolName;
  if (shaped.toolInput !== undefined) out.tool_input = shaped.toolInput;
  return out;
}

/** Native default timeouts (design §2.2), by handler type. */
export function nativeDefaultTimeoutSec(_event: HookEventName, type: HandlerType): number {
  return DEFAULT_TIMEOUT_SEC[type];
}
