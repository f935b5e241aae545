/**
 * The pieces every exit-code table builds its verdicts from: the verdict of one run, what a
 * block means on a gating or an observing event, and the verdict of valid JSON output.
 */
import type { HookEventName, ToolInput } from "./events.js";
import type { HookOutput, ParsedOutput } from "./output.js";
import type { HookOutcome } from "./types.js";

/** What one command run ended with, for the exit-code table. */
export interface ExitFacts {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  /** Stdout read as hook JSON (kind "none" when the dialect does not parse JSON). */
  parsed: ParsedOutput;
}

/** A dialect's exit-code table: which events it lets a hook block, and what an exit means. */
export interface ExitTable {
  /** A short name for messages and tests. */
  readonly name: string;
  /** Whether a hook of this dialect can block `event`. */
  gating(event: HookEventName): boolean;
  /** The verdict of a finished command (not timed out, not cancelled, started). */
  decide(ctx: DecideContext, run: ExitFacts): RunVerdict;
}

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
  /** Claude output fields beyond the classic ones (sessionTitle, watchPaths, retry, …). */
  extras?: Record<string, unknown>;
  /** Where additionalContext came from: plain stdout or JSON output (agents word them apart). */
  contextSource?: "stdout" | "json";
  /** A block message on an observing event that went to the model (also in additionalContext). */
  feedback?: string;
}

/** What decideRun needs to know besides the result. */
export interface DecideContext {
  event: HookEventName;
  /** The hook's dialect's exit-code table. */
  exitTable: ExitTable;
  /** Whether stdout JSON is read (false for Reasonix 0.x). */
  parsesJson: boolean;
  /** "allow" lets a gating hook that timed out pass. */
  onTimeout?: "block" | "allow";
  /** "block": a gating hook whose process could not start (or was killed by a signal) blocks. */
  onError?: "block" | "allow";
  /** "block": any failure of the hook blocks (Claude Code's onFailure; decide.ts). */
  onFailure?: "block" | "continue";
  /** What ran, for default messages. */
  label: string;
  /** The event is about an MCP tool (`mcp__…`): only then does `updatedMCPToolOutput` apply. */
  mcpTool?: boolean;
  timeoutMs?: number;
  /** Said after a timeout message, e.g. that the dialect's timeouts are milliseconds. */
  timeoutNote?: string;
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

/** A verdict with every field not given at its neutral value. */
export const verdict = (v: Partial<RunVerdict>): RunVerdict => ({ ...EMPTY, ...v });

/** Trimmed text, or null when there is none. */
export function nonEmpty(text: string | null | undefined): string | null {
  const t = text?.trim();
  return t ? t : null;
}

/** A block: a decision on gating events, feedback for the model on observing ones. */
export function blockOrFeedback(
  ctx: DecideContext,
  reason: string,
  base: Partial<RunVerdict> = {},
): RunVerdict {
  if (ctx.exitTable.gating(ctx.event)) {
    return verdict({ ...base, outcome: "block", decision: "block", message: reason });
  }
  if (ctx.feedbackTo === "user") return verdict({ ...base, outcome: "warn", message: reason });
  const context = [base.additionalContext, reason].filter(Boolean).join("\n");
  return verdict({
    ...base,
    outcome: "warn",
    message: reason,
    additionalContext: context,
    feedback: reason,
  });
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

/** Output fields beyond the classic ones, kept for the agent (see HookDecision.extras). */
const EXTRA_FIELDS = [
  "sessionTitle",
  "watchPaths",
  "updatedMCPToolOutput",
  "retry",
  "suppressOriginalPrompt",
  "initialUserMessage",
  "reloadSkills",
  "worktreePath",
  "displayContent",
  "action",
  "content",
] as const;

function extrasOf(out: HookOutput): Record<string, unknown> | undefined {
  const hso = (out.hookSpecificOutput ?? {}) as Record<string, unknown>;
  const extras: Record<string, unknown> = {};
  for (const key of EXTRA_FIELDS) if (hso[key] !== undefined) extras[key] = hso[key];
  if (out.terminalSequence !== undefined && out.terminalSequence !== null) {
    extras.terminalSequence = out.terminalSequence;
  }
  return Object.keys(extras).length > 0 ? extras : undefined;
}

/**
 * Claude Code's `updatedMCPToolOutput` as the text the model sees: a string as is, an MCP result
 * (`{content: [{type: "text", text}]}`) as its text parts, anything else as JSON.
 */
function mcpOutputText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value;
  const content = (value as { content?: unknown }).content;
  if (Array.isArray(content)) {
    const texts = content.flatMap((c) =>
      typeof c === "object" && c !== null && typeof c.text === "string" ? [c.text as string] : [],
    );
    if (texts.length > 0) return texts.join("\n");
  }
  return JSON.stringify(value);
}

/** The non-decision fields of a valid output. */
function outputFields(ctx: DecideContext, out: HookOutput): Partial<RunVerdict> {
  const hso = out.hookSpecificOutput ?? undefined;
  const extras = extrasOf(out);
  return {
    updatedInput:
      hso?.updatedInput ??
      hso?.tool_input ??
      hso?.decision?.updatedInput ??
      out.updatedInput ??
      null,
    updatedToolOutput:
      ctx.event === "PostToolUse"
        ? (hso?.updatedToolOutput ??
          (ctx.mcpTool ? mcpOutputText(hso?.updatedMCPToolOutput) : undefined) ??
          null)
        : null,
    additionalContext: nonEmpty(hso?.additionalContext ?? out.additionalContext),
    contextSource: "json",
    systemMessage: nonEmpty(out.systemMessage),
    continue: out.continue !== false,
    stopReason: out.continue === false ? nonEmpty(out.stopReason) : null,
    ...(extras ? { extras } : {}),
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

/** The warning for an exit code no table gives a meaning. */
export function exitWarning(code: number | null, signal: string | null, stderr: string): string {
  const err = nonEmpty(stderr);
  if (code === 127) return `command not found${err ? `: ${err}` : ""}`;
  const how = code === null ? `killed by ${signal ?? "a signal"}` : `exit ${code}`;
  return err ? `${how}: ${err}` : how;
}

/** Events whose plain (non-JSON) stdout on exit 0 becomes context for the model. */
export const PLAIN_STDOUT_IS_CONTEXT: ReadonlySet<HookEventName> = new Set([
  "UserPromptSubmit",
  "SessionStart",
]);
