/**
 * Harvest (opt-in, from the Reasonix design): after a reply with `reasoning_content`, one cheap
 * JSON-mode request turns the reasoning into plan state {subgoals, hypotheses, uncertainties,
 * rejectedPaths}. The plan lives in the volatile scratch and the UI; it is never sent back, so
 * the prefix and the log are untouched.
 */
import { z } from "zod";
import type { ChatClient, Usage } from "../llm/index.js";
import { completeJson } from "../llm/index.js";
import { renderMessage } from "./render.js";

/** What harvest extracts from one reasoning trace. */
export interface PlanState {
  subgoals: string[];
  hypotheses: string[];
  uncertainties: string[];
  rejectedPaths: string[];
}

const items = z.array(z.string()).catch([]);
const planSchema = z.object({
  subgoals: items.default([]),
  hypotheses: items.default([]),
  uncertainties: items.default([]),
  rejectedPaths: items.default([]),
});

/** Reasoning longer than this is cut (head and tail) before it is sent to the cheap model. */
export const MAX_HARVEST_INPUT_CHARS = 24_000;

const INSTRUCTIONS = `Extract the plan state from the reasoning trace below. Answer with one JSON object with exactly these keys, each an array of short strings (at most 8 items, each under 120 characters), taken only from what the trace says:
- "subgoals": concrete intermediate objectives
- "hypotheses": candidate approaches or answers being weighed
- "uncertainties": things the trace flags as unclear or unverified
- "rejectedPaths": approaches considered and abandoned
Use [] for a key the trace says nothing about.`;

/** The harvest request's messages (one user message; JSON mode needs the word "JSON"). */
export function harvestMessages(reasoning: string): string[] {
  const text =
    reasoning.length <= MAX_HARVEST_INPUT_CHARS
      ? reasoning
      : `${reasoning.slice(0, MAX_HARVEST_INPUT_CHARS / 2)}\n[…]\n${reasoning.slice(-MAX_HARVEST_INPUT_CHARS / 2)}`;
  return [
    renderMessage({
      role: "user",
      content: `${INSTRUCTIONS}\n\n<reasoning>\n${text}\n</reasoning>`,
    }),
  ];
}

/** The result of one harvest. */
export type HarvestResult =
  | { ok: true; plan: PlanState; usage: Usage | null }
  | { ok: false; error: string; usage: Usage | null };

/** Runs one harvest. Never throws. */
export async function harvestReasoning(
  client: ChatClient,
  model: string,
  reasoning: string,
  signal: AbortSignal,
): Promise<HarvestResult> {
  const r = await completeJson(client, {
    model,
    messages: harvestMessages(reasoning),
    temperature: 0,
    thinking: "disabled",
    signal,
  });
  if (!r.ok) return { ok: false, error: r.error, usage: null };
  let raw: unknown;
  try {
    raw = JSON.parse(r.text);
  } catch {
    return { ok: false, error: "the harvest answer is not JSON", usage: r.usage };
  }
  const parsed = planSchema.safeParse(raw);
  if (!parsed.success)
    return { ok: false, error: "the harvest answer is not an object", usage: r.usage };
  const clean = (xs: string[]) =>
    xs
      .map((x) => x.trim())
      .filter((x) => x !== "")
      .slice(0, 8);
  return {
    ok: true,
    plan: {
      subgoals: clean(parsed.data.subgoals),
      hypotheses: clean(parsed.data.hypotheses),
      uncertainties: clean(parsed.data.uncertainties),
      rejectedPaths: clean(parsed.data.rejectedPaths),
    },
    usage: r.usage,
  };
}
