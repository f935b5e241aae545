/**
 * Types the request path shares (the core, the turn loop, compaction, harvest and branching).
 * Types only, importing nothing of the agent's that could import back: this is what lets
 * `core.ts` sit below `turn.ts`, `compact.ts` and `reasoning.ts` with no import circle
 * (test/agent/no-circles.test.ts).
 */
import type { ChatMessage, FinishReason, Usage } from "../llm/index.js";
import type { BranchSelector } from "./branch.js";

/** What one request returned: the assembled message, or why there is none. */
export type RequestReply =
  | { kind: "message"; message: ChatMessage; finishReason: FinishReason; usage: Usage | null }
  /** `shownText`: the answer text the user already saw when the request failed or was
   *  interrupted (kept in the log on an interrupt, so the model knows what it had said). */
  | { kind: "error"; message: string; shownText?: string };

/** Harvest and branching settings of a session. */
export interface ReasoningOptions {
  harvest: boolean;
  /** Samples per request; 1 = no branching. */
  branch: number;
  /** The model harvest asks (cheap, JSON mode). */
  cheapModel: string;
  selector?: BranchSelector;
}

/** One compaction as the stats report it. */
export interface CompactionRecord {
  trigger: "manual" | "auto";
  /** Why an automatic one ran. */
  reason: "threshold" | "context_length" | "manual";
  /** Prompt tokens of the last request before it (what each request cost to send). */
  promptTokensBefore: number;
  /** Prompt tokens of the first request after it (null until that request is made). */
  promptTokensAfter: number | null;
  /** Cost of the summary request. */
  costUsd: number;
}
