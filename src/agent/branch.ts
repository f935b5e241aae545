/**
 * Branching (opt-in, from the Reasonix design): N samples of one request in parallel at spread
 * temperatures (0, 0.5, 1.0 for three), all with the same bytes, so every sample after the
 * first reads the cached prefix. A selector picks one — by default the one with the fewest
 * harvested uncertainties, then the shorter answer — and only the pick enters the log.
 */

import type { ChatMessage, ChatRequest, FinishReason, Usage } from "../llm/index.js";
import { costUsd } from "../llm/index.js";
import type { AgentEvent } from "./events.js";
import type { PlanState } from "./harvest.js";

/** One sample of a branched request. */
export interface BranchSample {
  index: number;
  temperature: number;
  message: ChatMessage;
  finishReason: FinishReason;
  usage: Usage | null;
  /** Harvested plan (null when harvest is off or failed). */
  plan: PlanState | null;
}

/** Picks the index (into `samples`) of the sample to keep. */
export type BranchSelector = (samples: readonly BranchSample[]) => number;

/** Fewest harvested uncertainties; ties go to the shorter answer, then the earlier sample. */
export const fewestUncertainties: BranchSelector = (samples) => {
  let best = 0;
  for (let i = 1; i < samples.length; i++) {
    const a = samples[i];
    const b = samples[best];
    if (a === undefined || b === undefined) continue;
    const ua = a.plan?.uncertainties.length ?? 0;
    const ub = b.plan?.uncertainties.length ?? 0;
    if (ua < ub || (ua === ub && answerChars(a.message) < answerChars(b.message))) best = i;
  }
  return best;
};

/** Temperatures spread evenly over [0, 1]: 0 / 0.5 / 1.0 for three samples. */
export function spreadTemperatures(n: number): number[] {
  if (n <= 1) return [0];
  return Array.from({ length: n }, (_, i) => Math.round((i / (n - 1)) * 100) / 100);
}

/** The length an answer is judged by: its text plus its tool-call arguments. */
export function answerChars(m: ChatMessage): number {
  let n = (m.content ?? "").length;
  for (const c of m.tool_calls ?? []) n += c.function.name.length + c.function.arguments.length;
  return n;
}

/** One finished sample, or why it failed. */
type Collected =
  | { ok: true; message: ChatMessage; finishReason: FinishReason; usage: Usage | null }
  | { ok: false; error: string };

/** Runs one request to its end without showing it (samples are shown only once picked). */
export async function collectSample(
  stream: (req: ChatRequest) => AsyncIterable<import("../llm/index.js").StreamEvent>,
  req: ChatRequest,
): Promise<Collected> {
  try {
    for await (const ev of stream(req)) {
      if (ev.type === "error") return { ok: false, error: ev.message };
      if (ev.type === "done") {
        return { ok: true, message: ev.message, finishReason: ev.finishReason, usage: ev.usage };
      }
    }
    return { ok: false, error: "the model's stream ended without an answer" };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/** The `branch` event for the UI: each sample's temperature, uncertainties, size and cost. */
export function branchEvent(
  model: string,
  samples: readonly BranchSample[],
  failed: number,
  picked: number,
  at: Date,
): Extract<AgentEvent, { type: "branch" }> {
  const rows = samples.map((s) => ({
    index: s.index,
    temperature: s.temperature,
    uncertainties: s.plan ? s.plan.uncertainties.length : null,
    answerChars: answerChars(s.message),
    costUsd: s.usage ? costUsd(model, s.usage, at) : 0,
  }));
  return {
    type: "branch",
    samples: rows,
    failed,
    picked: samples[picked]?.index ?? 0,
    costUsd: rows.reduce((n, r) => n + r.costUsd, 0),
  };
}

export { branchLine } from "./reasoning-lines.js";
