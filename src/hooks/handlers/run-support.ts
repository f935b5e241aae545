/**
 * Shared plumbing of the handlers that do not spawn a process (http, prompt, agent): one deadline
 * that merges the hook's timeout with the firing's cancellation, and builders for results.
 */
import { performance } from "node:perf_hooks";
import type { DecidedRunResult } from "./types.js";

/** Why a deadline fired. */
export type DeadlineCause = "timeout" | "cancelled";

/** A run's deadline: its signal aborts on timeout or when the firing is cancelled. */
export interface Deadline {
  signal: AbortSignal;
  /** Null until the deadline fires. */
  cause(): DeadlineCause | null;
  elapsedMs(): number;
  /** Clears the timer; call when the run is over. */
  dispose(): void;
}

/** Starts the deadline of one run. */
export function startDeadline(opts: { timeoutMs: number; signal: AbortSignal }): Deadline {
  const started = performance.now();
  const controller = new AbortController();
  let cause: DeadlineCause | null = null;
  const fire = (why: DeadlineCause): void => {
    if (cause) return;
    cause = why;
    controller.abort(new Error(why));
  };
  const onAbort = (): void => fire("cancelled");
  if (opts.signal.aborted) fire("cancelled");
  else opts.signal.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(() => fire("timeout"), Math.max(0, opts.timeoutMs));
  return {
    signal: controller.signal,
    cause: () => cause,
    elapsedMs: () => Math.round(performance.now() - started),
    dispose: () => {
      clearTimeout(timer);
      opts.signal.removeEventListener("abort", onAbort);
    },
  };
}

/** How racing work against a deadline ended. */
export type Settled<T> =
  | { kind: "done"; value: T }
  | { kind: "failed"; error: unknown }
  | { kind: "timeout" }
  | { kind: "cancelled" };

/**
 * Waits for `work` or the deadline, whichever comes first. Work that ignores the abort signal
 * is abandoned (its result is dropped), so a runner that never settles cannot hold the engine.
 */
export async function settle<T>(deadline: Deadline, work: Promise<T>): Promise<Settled<T>> {
  const fired = new Promise<{ kind: "timeout" } | { kind: "cancelled" }>((resolve) => {
    const report = (): void =>
      resolve(deadline.cause() === "timeout" ? { kind: "timeout" } : { kind: "cancelled" });
    if (deadline.signal.aborted) report();
    else deadline.signal.addEventListener("abort", report, { once: true });
  });
  const outcome = await Promise.race([
    work.then(
      (value): Settled<T> => ({ kind: "done", value }),
      (error: unknown): Settled<T> => ({ kind: "failed", error }),
    ),
    fired,
  ]);
  // Work that failed because the deadline aborted it reports the deadline, not the error.
  const cause = deadline.cause();
  if (outcome.kind === "failed" && cause)
    return cause === "timeout" ? { kind: "timeout" } : { kind: "cancelled" };
  return outcome;
}

/** A decided result with empty defaults for the fields a message-only outcome leaves out. */
export function decided(
  outcome: DecidedRunResult["outcome"],
  fields: Partial<Omit<DecidedRunResult, "kind" | "outcome">> & { durationMs: number },
): DecidedRunResult {
  return {
    kind: "decided",
    outcome,
    message: fields.message ?? null,
    stdout: fields.stdout ?? "",
    stderr: fields.stderr ?? "",
    exitCode: fields.exitCode ?? null,
    truncated: fields.truncated ?? false,
    durationMs: fields.durationMs,
  };
}

/** Cuts `text` to at most `maxBytes` UTF-8 bytes (never splitting a character). */
export function capText(text: string, maxBytes: number): { text: string; truncated: boolean } {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return { text, truncated: false };
  let end = Math.max(0, maxBytes);
  // Step back over continuation bytes so the cut lands on a character boundary.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return { text: bytes.subarray(0, end).toString("utf8"), truncated: true };
}

/** An error's message, for a warning line. */
export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}
