/**
 * Retry timing: exponential backoff with jitter, `Retry-After` honoured (seconds or HTTP date),
 * and an abortable sleep.
 */

/** HTTP statuses worth retrying: rate limit, server error, overload (and gateway hiccups). */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

/** A sleep that resolves early (without throwing) when the signal aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The default sleep: setTimeout, cut short by an abort. */
export const defaultSleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });

/** Parses a Retry-After header into milliseconds, or null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}

/** Options for the backoff delay. */
export interface BackoffOptions {
  attempt: number;
  baseDelayMs: number;
  maxDelayMs: number;
  retryAfterMs: number | null;
  random?: () => number;
}

/** Delay before retry `attempt` (1-based): Retry-After if given, else base·2^(n-1) with jitter. */
export function backoffDelay(o: BackoffOptions): number {
  if (o.retryAfterMs !== null) return Math.min(o.retryAfterMs, o.maxDelayMs);
  const exp = o.baseDelayMs * 2 ** (o.attempt - 1);
  const jitter = 0.5 + (o.random ?? Math.random)() * 0.5;
  return Math.min(Math.round(exp * jitter), o.maxDelayMs);
}
