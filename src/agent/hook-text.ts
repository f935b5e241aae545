/**
 * The words the model reads when a hook blocked, asked or added context. Claude Code hooks get
 * Claude Code's own wording (measured on the real binary; hook authors and their tests expect
 * it); Keel's other dialects keep Keel's wording, which names the hook and its source file.
 */
import type { HookEventName } from "../hooks/events.js";
import type { HookDecision, HookRunRecord } from "../hooks/types.js";
import { vetoingHooks, vetoReason } from "./hook-fire.js";

/** The runs that decided a veto or an ask (timeouts included). */
function decidingRuns(decision: HookDecision): HookRunRecord[] {
  const kinds = decision.decision === "ask" ? ["pass"] : ["block", "timeout"];
  return decision.runs.filter((r) => kinds.includes(r.outcome) && r.message !== null);
}

/** Whether every deciding run is a Claude Code hook that did not time out. */
function allClaude(runs: readonly HookRunRecord[]): boolean {
  return runs.length > 0 && runs.every((r) => r.dialect === "claude" && r.outcome !== "timeout");
}

/** An exit-2 run's message in Claude's form: `[<command>]: <stderr>`. */
function exit2Text(run: HookRunRecord, trim: boolean): string {
  return `[${run.command}]: ${trim ? run.stderr.trim() : run.stderr}`;
}

/** Context a tool event's hooks added, as Claude words it (`PreToolUse:Bash hook additional context: …`). */
export function toolContextText(event: HookEventName, tool: string, text: string): string {
  return `${event}:${tool} hook additional context: ${text.trim()}`;
}

/** The tool result the model gets when PreToolUse hooks vetoed the call. */
export function preToolVetoText(decision: HookDecision, tool: string): string {
  const runs = decidingRuns(decision);
  if (allClaude(runs)) {
    // Claude Code: exit 2 → "PreToolUse:<tool> hook error: [<command>]: <stderr>" (JSON on stdout
    // ignored); a JSON deny → its reason alone.
    return runs
      .map((r) =>
        r.exitCode === 2 ? `PreToolUse:${tool} hook error: ${exit2Text(r, false)}` : r.message,
      )
      .join("\n");
  }
  return `Blocked by ${vetoingHooks(decision)}: ${vetoReason(decision)}. The tool did not run.`;
}

/**
 * The tool result when a PreToolUse hook asked for approval and nobody can give it (headless):
 * Claude Code gives the model the hook's reason; null when Keel's own wording applies.
 */
export function headlessAskText(decision: HookDecision): string | null {
  const runs = decision.runs.filter((r) => r.outcome === "pass" && r.dialect === "claude");
  if (decision.decision !== "ask" || runs.length === 0) return null;
  if (decision.runs.some((r) => r.dialect !== "claude" && r.outcome === "pass" && r.message)) {
    return null;
  }
  return decision.reason?.trim() || null;
}

/** The message that sends the model back to work after a Stop hook blocked. */
export function stopFeedbackText(decision: HookDecision): string {
  const runs = decidingRuns(decision);
  if (allClaude(runs)) {
    const lines = runs.map((r) => (r.exitCode === 2 ? exit2Text(r, true) : (r.message ?? "")));
    return `Stop hook feedback:\n${lines.join("\n")}`;
  }
  return `A Stop hook asks you to keep working:\n${vetoReason(decision)}`;
}
