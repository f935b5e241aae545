/**
 * The opt-in reasoning features on the request path: harvest after a reply with reasoning, and
 * branched requests (N samples, one picked). Their costs are the session's and are reported per
 * turn through the `harvest` and `branch` events.
 */
import type { ChatRequest } from "../llm/index.js";
import {
  type BranchSample,
  branchEvent,
  collectSample,
  fewestUncertainties,
  spreadTemperatures,
} from "./branch.js";
import { type AgentCore, assistantMessage, type RequestStrategies } from "./core.js";
import type { RequestReply } from "./core-types.js";
import type { AgentEvent } from "./events.js";
import { harvestReasoning, type PlanState } from "./harvest.js";
import { LeakedMarkupFilter } from "./repair/stream-filter.js";

/** The scratch note the current plan is kept under (volatile: never sent). */
export const PLAN_NOTE = "plan";

/** Harvests `reasoning` into the scratch and yields the `harvest` event. Never throws. */
export async function* harvestInto(
  core: AgentCore,
  reasoning: string,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, PlanState | null> {
  const r = await harvestReasoning(core.client, core.reasoning.cheapModel, reasoning, signal);
  const cost = r.usage ? core.accountExternal(core.reasoning.cheapModel, r.usage) : 0;
  if (!r.ok) {
    yield { type: "notice", level: "warn", text: `Harvest failed: ${r.error}` };
    return null;
  }
  core.scratch.notes.set(PLAN_NOTE, r.plan);
  yield { type: "harvest", plan: r.plan, costUsd: cost };
  return r.plan;
}

/** N samples of `req` in parallel; the selector's pick is shown and returned. */
export async function* requestBranched(
  core: AgentCore,
  req: ChatRequest,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, RequestReply> {
  const temps = spreadTemperatures(core.reasoning.branch);
  // The first call was counted by the caller; each further sample is a request too.
  core.requests += temps.length - 1;
  const results = await Promise.all(
    temps.map((temperature) =>
      collectSample((r) => core.client.stream(r), { ...req, temperature }),
    ),
  );
  const samples: BranchSample[] = [];
  let firstError = "";
  for (const [i, r] of results.entries()) {
    if (!r.ok) {
      firstError ||= r.error;
      continue;
    }
    if (r.usage) yield core.accountRequest(r.usage);
    const message = assistantMessage(r.message);
    samples.push({
      index: i,
      temperature: temps[i] ?? 0,
      message,
      finishReason: r.finishReason,
      usage: r.usage,
      plan: null,
    });
  }
  if (samples.length === 0) return { kind: "error", message: firstError || "every sample failed" };
  const harvestCost = core.reasoning.harvest ? await harvestSamples(core, samples, signal) : 0;
  const picked = pickSample(core, samples);
  const chosen = samples[picked] ?? samples[0];
  if (chosen === undefined) return { kind: "error", message: "no sample" };
  yield branchEvent(core.model, samples, results.length - samples.length, picked, new Date());
  yield* showChosen(core, chosen);
  if (chosen.plan) {
    core.scratch.notes.set(PLAN_NOTE, chosen.plan);
    yield { type: "harvest", plan: chosen.plan, costUsd: harvestCost };
  }
  return {
    kind: "message",
    message: chosen.message,
    finishReason: chosen.finishReason,
    usage: chosen.usage,
  };
}

/** Harvests each sample's reasoning into its `plan`; returns what the harvests cost. */
async function harvestSamples(
  core: AgentCore,
  samples: BranchSample[],
  signal: AbortSignal,
): Promise<number> {
  let harvestCost = 0;
  const plans = await Promise.all(
    samples.map(async (s) => {
      const reasoning = s.message.reasoning_content;
      if (!reasoning) return null;
      const r = await harvestReasoning(core.client, core.reasoning.cheapModel, reasoning, signal);
      if (r.usage) harvestCost += core.accountExternal(core.reasoning.cheapModel, r.usage);
      return r.ok ? r.plan : null;
    }),
  );
  for (const [i, plan] of plans.entries()) {
    const s = samples[i];
    if (s) s.plan = plan;
  }
  return harvestCost;
}

/** The selector's pick; the first sample when it throws or names no sample. */
function pickSample(core: AgentCore, samples: readonly BranchSample[]): number {
  const select = core.reasoning.selector ?? fewestUncertainties;
  let picked = 0;
  try {
    picked = select(samples);
  } catch {
    picked = 0;
  }
  if (!Number.isInteger(picked) || picked < 0 || picked >= samples.length) picked = 0;
  return picked;
}

/** Shows the picked sample once chosen, through the same filter streamed text goes through. */
async function* showChosen(core: AgentCore, chosen: BranchSample): AsyncGenerator<AgentEvent> {
  const reasoning = chosen.message.reasoning_content ?? "";
  if (reasoning !== "") {
    core.scratch.reasoning += reasoning;
    const f = new LeakedMarkupFilter();
    const shown = f.push(reasoning) + f.end();
    if (shown !== "") yield { type: "reasoning_delta", text: shown };
  }
  const text = chosen.message.content ?? "";
  if (text !== "") {
    const f = new LeakedMarkupFilter();
    const shown = f.push(text) + f.end();
    if (shown !== "") yield { type: "text_delta", text: shown };
  }
}

/** Branching and harvest as the core runs them (`CoreOptions.strategies`). */
export const REQUEST_STRATEGIES: RequestStrategies = {
  branched: requestBranched,
  harvest: harvestInto,
};
