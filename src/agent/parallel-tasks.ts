/**
 * Several `task` calls in one reply run at once (issue 27): each is a sub-agent with its own
 * conversation, read-only tools by default, so one need not wait for another. Each still goes
 * through the one pipeline (pipeline/index.ts) with its own hooks; their events interleave, each
 * keeping its call's id; turn.ts writes their results to the log in call order. Every other call
 * runs alone, one after the other, as before.
 *
 * A call that stops the turn (a hook's `continue: false`, a "no" inside a sub-agent) stops the
 * calls AFTER the group; the group's other calls, already started, run to their end.
 */
import type { AgentEvent } from "./events.js";
import { mergeStreams } from "./merge-streams.js";
import {
  type DispatchContext,
  type DispatchOutcome,
  dispatchToolCall,
  type PreparedCall,
} from "./pipeline/index.js";
import type { AskPermission } from "./types.js";

/** At most this many sub-agents of one reply run at a time; the rest start as they finish. */
export const MAX_CONCURRENT_TASKS = 4;

/**
 * How many calls from `start` run together: the consecutive calls of a tool that runs as an
 * event stream (the `task` sub-agent, DispatchContext.streaming), or 1.
 */
export function concurrentTaskRun(
  ctx: DispatchContext,
  calls: readonly { name: string }[],
  start: number,
): number {
  let end = start;
  while (end < calls.length && ctx.streaming?.has(calls[end]?.name ?? "") === true) end++;
  return Math.max(1, end - start);
}

/** Runs the calls at once (at most MAX_CONCURRENT_TASKS); outcomes in call order. */
export async function* runConcurrently(
  ctx: DispatchContext,
  calls: readonly PreparedCall[],
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, DispatchOutcome[]> {
  return yield* mergeStreams(
    calls.map((call) => () => dispatchToolCall(ctx, call, signal)),
    MAX_CONCURRENT_TASKS,
  );
}

/**
 * The same question callback, asking one question at a time: concurrent sub-agents share the
 * person at the prompt, and a front end shows one question at once (the TUI's permission bridge
 * would replace an open question with the next one). Later questions wait their turn; one whose
 * signal ends while it waits is not asked and gets "deny", as an aborted question does.
 */
export function oneQuestionAtATime(ask: AskPermission): AskPermission {
  let queue: Promise<unknown> = Promise.resolve();
  return (prompt, opts) => {
    const turn = queue.then(() => (opts.signal.aborted ? ("deny" as const) : ask(prompt, opts)));
    // The next question waits for this one whatever its answer, even a failure.
    queue = turn.catch(() => {});
    return turn;
  };
}
