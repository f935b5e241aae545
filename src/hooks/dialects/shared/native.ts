/**
 * Pieces shared by the dialects whose payload is Keel's native (Claude Code compatible) shape:
 * keel, claude, cagent and tutorial.
 */

import type { ReadContext } from "../../config/handler.js";
import { readJsonHooksFile } from "../../config/parse.js";
import { readNativeHooks } from "../../config/read-native.js";
import { hooksFileSchema } from "../../config/schema.js";
import type { AnyEventPayload, HookEventName } from "../../events.js";
import { DEFAULT_TIMEOUT_SEC, isHookEventName } from "../../events.js";
import type { HandlerType } from "../../types.js";
import type { DialectReadResult, ShapedTool } from "../types.js";

/** The native stdin object with the dialect's tool name, input and event name swapped in. */
export function nativeStdinObject(
  payload: AnyEventPayload,
  shaped: ShapedTool,
  eventName: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...payload, hook_event_name: eventName };
  if (shaped.toolName !== undefined) out.tool_name = shaped.toolName;
  if (shaped.toolInput !== undefined) out.tool_input = shaped.toolInput;
  if (shaped.toolResponse !== undefined && "tool_response" in out) {
    out.tool_response = shaped.toolResponse;
  }
  return out;
}

/** Native default timeouts (docs/hooks.md "Timeouts, fail-closed gating and output caps"), by handler type. */
export function nativeDefaultTimeoutSec(_event: HookEventName, type: HandlerType): number {
  return DEFAULT_TIMEOUT_SEC[type];
}

/** Event names as Keel (and Claude Code) spell them. */
export const nativeEvents = {
  eventName: (event: HookEventName): string => event,
  eventFromName: (name: string): HookEventName | undefined =>
    isHookEventName(name) ? name : undefined,
};

/** Reads a Claude-style JSON settings file (`{"hooks": {...}}`). */
export function readClaudeStyleFile(text: string, ctx: ReadContext): DialectReadResult {
  return readJsonHooksFile(text, ctx, hooksFileSchema(), (hooks, c) => readNativeHooks(hooks, c));
}
