/**
 * Per-turn working state that is never sent to the model: the turn's reasoning text, plan
 * notes, counters. Kept apart from the log so nothing here can leak into a request's bytes.
 */

/** Volatile state for one user turn; `reset()` at each turn start. */
export class VolatileScratch {
  /** Reasoning text streamed during this turn (for harvest and the UI; never re-sent). */
  reasoning = "";
  /** Free-form notes (plan state, repair counters) keyed by owner. */
  readonly notes = new Map<string, unknown>();
  /** Stop-hook blocks in a row during this turn (at most MAX_STOP_BLOCKS_IN_A_ROW, hooks/events.ts). */
  stopBlocks = 0;

  /** Clears everything at the start of a user turn. */
  reset(): void {
    this.reasoning = "";
    this.notes.clear();
    this.stopBlocks = 0;
  }
}
