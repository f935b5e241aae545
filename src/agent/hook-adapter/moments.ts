/**
 * Firing the Claude Code events whose moments Keel has besides the classic ones: StopFailure
 * (a turn failed), PostToolBatch (every call of one model response resolved) and
 * PermissionDenied (a call denied without asking anyone). Kept out of the turn loop so the
 * loop only calls one function per moment.
 */
import type { HookEngine } from "../../hooks/index.js";
import type { AgentEvent } from "../events.js";
import { fireHook, type HookSessionInfo, isVeto, vetoingHooks, vetoReason } from "./fire.js";

/** Claude Code's StopFailure error kinds, guessed from the failure text. */
export function stopFailureKind(message: string): string {
  const m = message.toLowerCase();
  if (/\b429\b|rate.?limit|too many requests/.test(m)) return "rate_limit";
  if (/\b40[13]\b|unauthori[sz]ed|authenticat|api key/.test(m)) return "authentication_failed";
  if (/\b402\b|billing|insufficient (balance|quota)|payment/.test(m)) return "billing_error";
  if (/max(imum)? ?(output )?tokens|finish_reason.*length|length limit/.test(m)) {
    return "max_output_tokens";
  }
  if (/\b400\b|invalid request|bad request/.test(m)) return "invalid_request";
  if (/\b5\d\d\b|server error|overloaded|unavailable/.test(m)) return "server_error";
  return "unknown";
}

/** Fires StopFailure for a failed turn; its output is ignored (as in Claude Code). */
export async function* fireStopFailure(
  hooks: HookEngine,
  info: HookSessionInfo,
  message: string,
  lastText: string,
): AsyncGenerator<AgentEvent, void> {
  yield* fireHook(hooks, info, "StopFailure", {
    error: stopFailureKind(message),
    error_details: message,
    last_assistant_message: lastText,
  });
}

/** One resolved call of a batch. */
export interface BatchCall {
  tool_name: string;
  tool_input: Record<string, unknown>;
  tool_use_id: string;
  tool_response: unknown;
}

/** What PostToolBatch hooks said: context for the model once, or a stop. */
export interface BatchVerdict {
  additionalContext: string | null;
  stopReason: string | null;
}

/** Fires PostToolBatch after every call of one model response resolved. */
export async function* firePostToolBatch(
  hooks: HookEngine,
  info: HookSessionInfo,
  calls: readonly BatchCall[],
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, BatchVerdict> {
  if (calls.length === 0) return { additionalContext: null, stopReason: null };
  const d = yield* fireHook(hooks, info, "PostToolBatch", { tool_calls: [...calls] }, signal);
  let stopReason: string | null = null;
  if (isVeto(d)) stopReason = `Stopped by ${vetoingHooks(d)}: ${vetoReason(d)}`;
  else if (!d.continue) stopReason = d.stopReason ?? "a PostToolBatch hook stopped the agent";
  return { additionalContext: d.additionalContext, stopReason };
}

/**
 * Fires PermissionDenied for a call refused without asking a person (the permission mode, or a
 * headless session). Returns the text for the model: the denial, plus Claude Code's retry hint
 * when a hook answered `retry: true`.
 */
export async function* firePermissionDenied(
  hooks: HookEngine,
  info: HookSessionInfo,
  call: { tool_name: string; tool_input: Record<string, unknown>; tool_use_id: string },
  reason: string,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, string> {
  const d = yield* fireHook(hooks, info, "PermissionDenied", { ...call, reason }, signal);
  const parts = [reason];
  if (d.additionalContext) parts.push(d.additionalContext);
  if (d.extras?.retry === true) parts.push("A PermissionDenied hook says you may retry this call.");
  return parts.join("\n");
}
