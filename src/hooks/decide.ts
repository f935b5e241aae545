/**
 * Pure decisions: what one hook run means (exit code + output → outcome). The exit-code
 * tables themselves belong to the dialects (`dialects/<name>/`); the verdict pieces they are
 * built from live in verdict.ts. Aggregating many runs into one HookDecision lives in
 * aggregate.ts.
 */

import { EVENT_SPECS } from "./events.js";
import type { HandlerResult } from "./handlers/types.js";
import { parseHookOutput } from "./output.js";
import { blockOrFeedback, type DecideContext, type RunVerdict, verdict } from "./verdict.js";

export type { DecideContext, RunDecisionKind, RunVerdict } from "./verdict.js";
export { verdictFromOutput } from "./verdict.js";

/** Events whose decisions are permission decisions on a tool call. */
const PERMISSION_EVENTS: ReadonlySet<string> = new Set(["PreToolUse", "PermissionRequest"]);

/** Whether a hook with this exit table can block this event. */
export function isGating(
  event: DecideContext["event"],
  table: DecideContext["exitTable"],
): boolean {
  return table.gating(event);
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 100) / 10}s`;
}

function timeoutVerdict(ctx: DecideContext): RunVerdict {
  const after = ctx.timeoutMs === undefined ? "" : ` after ${formatDuration(ctx.timeoutMs)}`;
  const note = ctx.timeoutNote ? ` — ${ctx.timeoutNote}` : "";
  // Fail-closed where a block stops an action; where it only keeps the agent working (Stop),
  // only when the handler asks for it.
  const failsClosed = EVENT_SPECS[ctx.event].blockContinues
    ? ctx.onTimeout === "block"
    : ctx.onTimeout !== "allow";
  if (ctx.exitTable.gating(ctx.event) && failsClosed) {
    return verdict({
      outcome: "timeout",
      decision: "block",
      message: `hook timed out${after}${note} (fail-closed; set "onTimeout": "allow" to let it pass): ${ctx.label}`,
    });
  }
  return verdict({ outcome: "timeout", message: `hook timed out${after}${note}: ${ctx.label}` });
}

/**
 * Why a process never did its work, or null when it ran: it could not be spawned, the shell
 * could not find or execute it (exit 127 / 126: a missing script or `#!` interpreter), or a
 * signal ended it (a crash; Keel's own timeout kill is `timedOut`, cancelling is `cancelled`).
 */
function failedToStart(result: Extract<HandlerResult, { kind: "raw" }>): string | null {
  if (result.startError !== null) return result.startError;
  if (result.exitCode === 127) return "exit 127: command or interpreter not found";
  if (result.exitCode === 126) return "exit 126: not executable";
  if (result.signal !== null) return `killed by ${result.signal}`;
  return null;
}

/**
 * The meaning of one run. Pure: (dialect rules, event, what the handler reported) → verdict.
 */
export function decideRun(ctx: DecideContext, result: HandlerResult): RunVerdict {
  const v = decideOnce(ctx, result);
  return ctx.onFailure === "block" ? failureBlocks(ctx, result, v) : v;
}

/**
 * Claude Code 2.1.332's `"onFailure": "block"`: a hook that could not start, timed out, exited
 * with a code other than 0 or 2, or printed JSON that is invalid counts as exit 2 — in its words
 * `failed; blocking because onFailure is "block"` — where a block stops an action. A run that
 * decided (a JSON deny on exit 1 included) keeps its decision; on Stop and the other events
 * where a block makes the agent go on, the option does nothing (as in Claude Code).
 */
function failureBlocks(ctx: DecideContext, result: HandlerResult, v: RunVerdict): RunVerdict {
  if (!ctx.exitTable.gating(ctx.event) || EVENT_SPECS[ctx.event].blockContinues) return v;
  if (v.decision === "block" || v.decision === "deny" || v.decision === "ask") return v;
  const timedOut = result.kind === "decided" ? result.outcome === "timeout" : result.timedOut;
  const failed =
    timedOut ||
    (result.kind === "raw" &&
      !result.cancelled &&
      (result.startError !== null ||
        result.signal !== null ||
        (result.exitCode !== 0 && result.exitCode !== 2) ||
        (ctx.parsesJson && parseHookOutput(result.stdout).kind === "invalid")));
  if (!failed) return v;
  return verdict({
    outcome: timedOut ? "timeout" : "error",
    decision: PERMISSION_EVENTS.has(ctx.event) ? "deny" : "block",
    message: `${timedOut ? "timed out" : "failed"}; blocking because onFailure is "block": ${ctx.label}`,
  });
}

function decideOnce(ctx: DecideContext, result: HandlerResult): RunVerdict {
  if (result.kind === "decided") {
    switch (result.outcome) {
      case "timeout":
        return timeoutVerdict(ctx);
      case "block": {
        // Only prompt and agent hooks decide a block themselves (`ok: false`). On a tool call
        // that is a permission decision, so it reads as deny, as Claude Code reads it.
        const v = blockOrFeedback(ctx, result.message ?? `blocked by hook: ${ctx.label}`);
        return v.decision === "block" && PERMISSION_EVENTS.has(ctx.event)
          ? { ...v, decision: "deny" }
          : v;
      }
      default:
        return verdict({ outcome: result.outcome, message: result.message });
    }
  }
  if (result.cancelled) return verdict({ outcome: "cancelled", message: "cancelled" });
  if (result.timedOut) return timeoutVerdict(ctx);
  const failed = failedToStart(result);
  if (failed !== null && ctx.onError === "block" && ctx.exitTable.gating(ctx.event)) {
    return verdict({
      outcome: "error",
      decision: PERMISSION_EVENTS.has(ctx.event) ? "deny" : "block",
      message: `hook could not run (${failed}); blocked because of "onError": "block": ${ctx.label}`,
    });
  }
  if (result.startError !== null) return verdict({ outcome: "error", message: result.startError });
  const parsed = ctx.parsesJson ? parseHookOutput(result.stdout) : { kind: "none" as const };
  return ctx.exitTable.decide(ctx, {
    code: result.exitCode,
    signal: result.signal,
    stdout: result.stdout,
    stderr: result.stderr,
    parsed,
  });
}
