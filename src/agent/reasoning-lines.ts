/**
 * One-line descriptions of harvested plan state and branch selection, for the TUI and
 * `keel run`. Kept apart from harvest.ts and branch.ts (which load zod and the price table) so
 * the TUI's first frame does not load them.
 */
import type { AgentEvent } from "./events.js";
import type { PlanState } from "./harvest.js";

/** The plan as the Reasonix TUI shows it: `‹ subgoals (3): a · b · c`, one line per kind. */
export function planLines(plan: PlanState): string[] {
  const rows: [string, string[]][] = [
    ["subgoals", plan.subgoals],
    ["hypotheses", plan.hypotheses],
    ["uncertain", plan.uncertainties],
    ["rejected", plan.rejectedPaths],
  ];
  return rows
    .filter(([, xs]) => xs.length > 0)
    .map(([label, xs]) => `‹ ${label} (${xs.length}): ${xs.join(" · ")}`);
}

/** The line the TUI shows: `branched 3 samples → picked #1   #0 T=0 u=2   ▸#1 T=0.5 u=0 …`. */
export function branchLine(ev: Extract<AgentEvent, { type: "branch" }>): string {
  const cells = ev.samples.map(
    (s) =>
      `${s.index === ev.picked ? "▸" : ""}#${s.index} T=${s.temperature.toFixed(1)} u=${s.uncertainties ?? "–"}`,
  );
  const failed = ev.failed > 0 ? ` (${ev.failed} failed)` : "";
  const cost = ev.costUsd > 0 ? `   $${ev.costUsd.toFixed(4)}` : "";
  return `branched ${ev.samples.length + ev.failed} samples${failed} → picked #${ev.picked}   ${cells.join("   ")}${cost}`;
}
