/**
 * Pure aggregation of the runs of one firing into a HookDecision (docs/hooks.md "When several hooks answer"): block/deny
 * veto, deny > ask > allow, updatedInput applied in configuration order and mapped back to
 * Keel's input, contexts and system messages concatenated in configuration order.
 */
import type { RunVerdict } from "./decide.js";
import type { Dialect } from "./dialects/types.js";
import type { HookEventName, ToolInput } from "./events.js";
import type {
  DecisionKind,
  HookContextPiece,
  HookDecision,
  HookOutputExtras,
  HookRunRecord,
} from "./types.js";

/** One run to aggregate: its verdict, its record, and the dialect its output is written in. */
export interface AggregateItem {
  verdict: RunVerdict;
  record: HookRunRecord;
  dialect: Dialect;
  /** Configuration order (items are sorted by it, never by finish time). */
  order: number;
}

/** The tool call a firing concerns, when it concerns one. */
export interface AggregateToolContext {
  keelTool: string;
  input: ToolInput;
  projectDir: string;
}

const EVENTS_WITH_INPUT_REWRITE: ReadonlySet<HookEventName> = new Set([
  "PreToolUse",
  "PermissionRequest",
]);

/** Folds the runs of one firing into the decision the agent acts on. */
export function aggregate(
  event: HookEventName,
  items: readonly AggregateItem[],
  tool?: AggregateToolContext,
): HookDecision {
  const sorted = [...items].sort((a, b) => a.order - b.order);
  const { decision, deciding } = decisionOf(sorted);
  const reasons = deciding.map((i) => i.verdict.message).filter((m): m is string => m !== null);
  const updatedInput =
    tool && EVENTS_WITH_INPUT_REWRITE.has(event) ? updatedInputOf(sorted, tool) : null;
  const contexts = sorted
    .map((i) => i.verdict.additionalContext)
    .filter((c): c is string => c !== null && c !== "");
  const stoppers = sorted.filter((i) => !i.verdict.continue);
  const outputs = sorted
    .map((i) => i.verdict.updatedToolOutput)
    .filter((o): o is string => o !== null);
  const extras = mergeExtras(sorted);
  const elicitation = elicitationOf(sorted);

  return {
    ...(extras ? { extras } : {}),
    event,
    decision,
    ...(elicitation ? { elicitation } : {}),
    reason: reasons.length > 0 ? reasons.join("\n") : null,
    updatedInput,
    updatedToolOutput: outputs.at(-1) ?? null,
    additionalContext: contexts.length > 0 ? contexts.join("\n\n") : null,
    systemMessages: sorted
      .map((i) => i.verdict.systemMessage)
      .filter((m): m is string => m !== null),
    continue: stoppers.length === 0,
    stopReason:
      stoppers.map((i) => i.verdict.stopReason).find((r): r is string => r !== null) ??
      (stoppers.length > 0 ? "stopped by hook" : null),
    contextPieces: contextPiecesOf(sorted),
    runs: sorted.map((i) => i.record),
  };
}

/** The decision and the runs that made it: a block or deny vetoes, else deny > ask > allow. */
function decisionOf(sorted: readonly AggregateItem[]): {
  decision: DecisionKind;
  deciding: AggregateItem[];
} {
  const vetoes = sorted.filter(
    (i) => i.verdict.decision === "block" || i.verdict.decision === "deny",
  );
  // Both veto; the first veto in configuration order names the kind.
  if (vetoes.length > 0) {
    return {
      decision: vetoes[0]?.verdict.decision === "deny" ? "deny" : "block",
      deciding: vetoes,
    };
  }
  for (const kind of ["ask", "allow"] as const) {
    const deciding = sorted.filter((i) => i.verdict.decision === kind);
    if (deciding.length > 0) return { decision: kind, deciding };
  }
  return { decision: "pass", deciding: [] };
}

/** Every run's updatedInput applied in configuration order, mapped back to Keel's input. */
function updatedInputOf(
  sorted: readonly AggregateItem[],
  tool: AggregateToolContext,
): ToolInput | null {
  let updatedInput: ToolInput | null = null;
  for (const item of sorted) {
    const upd = item.verdict.updatedInput;
    if (!upd) continue;
    const mapped = item.dialect.inputFromDialect(tool.keelTool, upd, tool.input, {
      projectDir: tool.projectDir,
    });
    const next: ToolInput = { ...(updatedInput ?? tool.input), ...mapped };
    // A whole-input rewrite also removes what it left out of the input it was shown; applied
    // as that change, so rewrites of other fields by other hooks still compose.
    if (item.dialect.updatedInputIsWhole) {
      for (const key of Object.keys(tool.input)) if (!(key in mapped)) delete next[key];
    }
    updatedInput = next;
  }
  return updatedInput;
}

/** Each run's context, its feedback (a dialect's stderr shown to the model) apart. */
function contextPiecesOf(sorted: readonly AggregateItem[]): HookContextPiece[] {
  const contextPieces: HookContextPiece[] = [];
  for (const i of sorted) {
    const v = i.verdict;
    let own = v.additionalContext;
    if (v.feedback !== undefined && own !== null) {
      own =
        own === v.feedback ? null : own.slice(0, Math.max(0, own.length - v.feedback.length - 1));
    }
    if (own) contextPieces.push({ source: v.contextSource ?? "json", text: own, run: i.record });
    if (v.feedback !== undefined && v.additionalContext !== null) {
      contextPieces.push({ source: "feedback", text: v.feedback, run: i.record });
    }
  }
  return contextPieces;
}

/** Claude Code's Elicitation answer (hookSpecificOutput.action / content), kept as an extra:
 *  the last run's that gave one. */
function elicitationOf(sorted: readonly AggregateItem[]): HookDecision["elicitation"] {
  const answers = sorted.flatMap((i) => {
    const action = i.verdict.extras?.action;
    if (action !== "accept" && action !== "decline" && action !== "cancel") return [];
    const answer: HookDecision["elicitation"] & object = { action };
    const content = i.verdict.extras?.content;
    const isObject = typeof content === "object" && content !== null && !Array.isArray(content);
    if (isObject) answer.content = content as Record<string, unknown>;
    return [answer];
  });
  return answers.at(-1);
}

/** Folds the newer output fields of every run (configuration order). */
function mergeExtras(items: readonly AggregateItem[]): HookOutputExtras | undefined {
  let out: HookOutputExtras | undefined;
  for (const item of items) {
    const x = item.verdict.extras;
    if (!x) continue;
    out ??= {};
    for (const [key, value] of Object.entries(x)) {
      if (key === "watchPaths" && Array.isArray(value)) {
        out.watchPaths = [...new Set([...(out.watchPaths ?? []), ...value.map(String)])];
      } else if (key === "retry") {
        out.retry = out.retry === true || value === true;
      } else {
        (out as Record<string, unknown>)[key] = value;
      }
    }
  }
  return out;
}

/** The decision of a firing where nothing ran. */
export function emptyDecision(event: HookEventName): HookDecision {
  return aggregate(event, []);
}
