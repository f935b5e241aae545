/**
 * Pure decisions: what one hook run means (exit code + output → outcome, per dialect).
 * Aggregating many runs into one HookDecision lives in aggregate.ts.
 */
import { REASONIX_GATING } from "./dialects/reasonix.js";
import type { ExitTable } from "./dialects/types.js";
import { EVENT_SPECS, type HookEventName, type ToolInput } from "./events.js";
import type { HandlerResult } from "./handlers/types.js";
import { type HookOutput, parseHookOutput } from "./output.js";
import type { HookOutcome } from "./types.js";

/** A decision one run expressed (null: none). */
export type RunDecisionKind = "allow" | "ask" | "deny" | "block";

/** What one run means, before aggregation. Tool inputs are still in the hook's dialect. */
export interface RunVerdict {
  outcome: HookOutcome;
  /** The block/deny/ask reason, the warning or error text, or the feedback given. */
  message: string | null;
  decision: RunDecisionKind | null;
  updatedInput: ToolInput | null;
  updatedToolOutput: string | null;
  additionalContext: string | null;
  systemMessage: string | null;
  continue: boolean;
  stopReason: string | null;
}

/** What decideRun needs to know besides the result. */
export interface DecideContext {
  event: HookEventName;
  exitTable: ExitTable;
  /** Whether stdout JSON is read (false for Reasonix). */
  parsesJson: boolean;
  /** "allow" lets a gating hook that timed out pass. */
  onTimeout?: "block" | "allow";
  /** What ran, for default messages. */
  label: string;
  timeoutMs?: number;
  /** On observing events, a block message goes to the model (default) or only to the user
   *  (the run's warning), as the hook's dialect says. */
  feedbackTo?: "model" | "user";
}

const EMPTY: RunVerdict = {
  outcome: "pass",
  message: null,
  decision: null,
  updatedInput: null,
  updatedToolOutput: null,
  additionalContext: null,
  systemMessage: null,
  continue: true,
  stopReason: null,
};

const verdict = (v: Partial<RunVerdict>): RunVerdict => ({ ...EMPTY, ...v });

/** Whether a hook of this exit table can block this event. */
export function isGating(event: HookEventName, table: ExitTable): boolean {
  return table === "reasonix" ? REASONIX_GATING.has(event) : EVENT_SPECS[event].gating;
}

/** Events whose decisions are permission decisions on a tool call. */
const PERMISSION_EVENTS: ReadonlySet<HookEventName> = new Set(["PreToolUse", "PermissionRequest"]);

/** Events whose plain (non-JSON) stdout on exit 0 becomes context for the model. */
const PLAIN_STDOUT_IS_CONTEXT: ReadonlySet<HookEventName> = new Set([
  "UserPromptSubmit",
  "SessionStart",
]);

function nonEmpty(text: string | null | undefined): string | null {
  const t = text?.trim();
  return t ? t : null;
}

/** A block: a decision on gating events, feedback for the model on observing ones. */
function blockOrFeedback(
  ctx: DecideContext,
  reason: string,
  base: Partial<RunVerdict> = {},
): RunVerdict {
  if (isGating(ctx.event, ctx.exitTable)) {
    return verdict({ ...base, outcome: "block", decision: "block", message: reason });
  }
  if (ctx.feedbackTo === "user") return verdict({ ...base, outcome: "warn", message: reason });
  const context = [base.additionalContext, reason].filter(Boolean).join("\n");
  return verdict({ ...base, outcome: "warn", message: reason, additionalContext: context });
}

/** The decision and reason a valid output expresses (most restrictive wins within one output). */
function outputDecision(out: HookOutput): {
  decision: RunDecisionKind | null;
  reason: string | null;
} {
  const hso = out.hookSpecificOutput ?? undefined;
  const kinds: RunDecisionKind[] = [];
  const pd = hso?.permissionDecision;
  if (pd === "allow" || pd === "deny" || pd === "ask") kinds.push(pd);
  const behavior = hso?.decision?.behavior;
  if (behavior) kinds.push(behavior);
  const d = out.decision;
  if (d === "block" || d === "deny" || d === "ask") kinds.push(d);
  else if (d === "approve" || d === "allow") kinds.push("allow");
  const rank: RunDecisionKind[] = ["block", "deny", "ask", "allow"];
  return {
    decision: rank.find((k) => kinds.includes(k)) ?? null,
    reason:
      nonEmpty(hso?.permissionDecisionReason) ??
      nonEmpty(hso?.decision?.message) ??
      nonEmpty(out.reason),
  };
}

/** The non-decision fields of a valid output. */
function outputFields(ctx: DecideContext, out: HookOutput): Partial<RunVerdict> {
  const hso = out.hookSpecificOutput ?? undefined;
  return {
    updatedInput: hso?.updatedInput ?? hso?.decision?.updatedInput ?? out.updatedInput ?? null,
    updatedToolOutput: ctx.event === "PostToolUse" ? (hso?.updatedToolOutput ?? null) : null,
    additionalContext: nonEmpty(hso?.additionalContext ?? out.additionalContext),
    systemMessage: nonEmpty(out.systemMessage),
    continue: out.continue !== false,
    stopReason: out.continue === false ? nonEmpty(out.stopReason) : null,
  };
}

/** The verdict of valid JSON output. `forceBlock` (exit 2) blocks even without a JSON decision. */
export function verdictFromOutput(
  ctx: DecideContext,
  out: HookOutput,
  opts: { forceBlock?: string } = {},
): RunVerdict {
  const base = outputFields(ctx, out);
  const { decision, reason } = outputDecision(out);
  if (decision === "block" || decision === "deny" || opts.forceBlock !== undefined) {
    const why = reason ?? opts.forceBlock ?? `blocked by hook: ${ctx.label}`;
    const v = blockOrFeedback(ctx, why, base);
    return v.decision && decision === "deny" ? { ...v, decision } : v;
  }
  if (decision === null) return verdict({ ...base, outcome: "pass" });
  return verdict({ ...base, outcome: "pass", decision, message: reason });
}

function timeoutVerdict(ctx: DecideContext): RunVerdict {
  const secs = ctx.timeoutMs === undefined ? "" : ` after ${Math.round(ctx.timeoutMs / 100) / 10}s`;
  if (isGating(ctx.event, ctx.exitTable) && ctx.onTimeout !== "allow") {
    return verdict({
      outcome: "timeout",
      decision: "block",
      message: `hook timed out${secs} (fail-closed; set "onTimeout": "allow" to let it pass): ${ctx.label}`,
    });
  }
  return verdict({ outcome: "timeout", message: `hook timed out${secs}: ${ctx.label}` });
}

function exitWarning(code: number | null, signal: string | null, stderr: string): string {
  const err = nonEmpty(stderr);
  if (code === 127) return `command not found${err ? `: ${err}` : ""}`;
  const how = code === null ? `killed by ${signal ?? "a signal"}` : `exit ${code}`;
  return err ? `${how}: ${err}` : how;
}

/**
 * The meaning of one run. Pure: (dialect rules, event, what the handler reported) → verdict.
 */
export function decideRun(ctx: DecideContext, result: HandlerResult): RunVerdict {
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
  if (result.startError !== null) return verdict({ outcome: "error", message: result.startError });
  if (result.timedOut) return timeoutVerdict(ctx);

  const code = result.exitCode;
  const stderr = nonEmpty(result.stderr);
  const stdout = nonEmpty(result.stdout);
  if (ctx.exitTable === "reasonix") {
    if (code === 0) return verdict({});
    if (code === 2 && isGating(ctx.event, "reasonix")) {
      return verdict({
        outcome: "block",
        decision: "block",
        message: stderr ?? stdout ?? `blocked by hook: ${ctx.label}`,
      });
    }
    return verdict({ outcome: "warn", message: exitWarning(code, result.signal, result.stderr) });
  }

  const parsed = ctx.parsesJson ? parseHookOutput(result.stdout) : { kind: "none" as const };
  const plainContext =
    code === 0 && parsed.kind === "none" && PLAIN_STDOUT_IS_CONTEXT.has(ctx.event) ? stdout : null;

  if (ctx.exitTable === "tutorial") {
    if (code === 0) {
      if (parsed.kind === "invalid") return verdict({ outcome: "warn", message: parsed.message });
      if (parsed.kind === "json") return verdictFromOutput(ctx, parsed.output);
      return verdict({ additionalContext: plainContext });
    }
    if (code === 1) return blockOrFeedback(ctx, stderr ?? `blocked by hook: ${ctx.label}`);
    if (code === 2) return verdict({ outcome: "pass", message: stderr, additionalContext: stderr });
    return verdict({ outcome: "warn", message: exitWarning(code, result.signal, result.stderr) });
  }

  // Native (keel, claude, cagent; http bodies): 0 pass, 2 block/feedback, other warn —
  // valid JSON on stdout decides whatever the exit code.
  if (code === 2) {
    const why = stderr ?? `blocked by hook: ${ctx.label}`;
    if (parsed.kind === "json") return verdictFromOutput(ctx, parsed.output, { forceBlock: why });
    return blockOrFeedback(ctx, why);
  }
  if (parsed.kind === "json") return verdictFromOutput(ctx, parsed.output);
  if (parsed.kind === "invalid") {
    const extra = code === 0 ? "" : ` (${exitWarning(code, result.signal, result.stderr)})`;
    return verdict({ outcome: "warn", message: `${parsed.message}${extra}` });
  }
  if (code === 0) return verdict({ additionalContext: plainContext });
  return verdict({ outcome: "warn", message: exitWarning(code, result.signal, result.stderr) });
}
