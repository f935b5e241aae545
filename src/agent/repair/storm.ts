/**
 * The storm breaker: models sometimes repeat the same call (same tool, same arguments) in a
 * loop. A sliding window of recent calls spots the repetition; the first storm on a call is
 * answered with a stub result that tells the model it is repeating itself (so it can correct
 * course), and a storm that continues after that ends the turn.
 */
import { callKey } from "./canonical.js";

/** Calls remembered. */
export const STORM_WINDOW = 6;
/** Identical calls within the window that make a storm. */
export const STORM_THRESHOLD = 3;

/** What to do with a call: run it, answer it with `stormStubResult`, or end the turn. */
export type StormVerdict = "ok" | "stub" | "abort";

/** A call as the storm breaker sees it (arguments parsed; key order does not matter). */
export interface StormCall {
  name: string;
  arguments: Record<string, unknown> | string;
}

/** Per-session storm state; `reset()` at each user turn. */
export interface StormBreaker {
  /** Records `call` and judges it. `mutating`: the call changes state (writes, shell). */
  check(call: StormCall, opts: { mutating: boolean }): StormVerdict;
  /** Forgets everything (a new user turn). */
  reset(): void;
}

/** Creates a storm breaker (window 6, threshold 3 unless overridden). */
export function createStormBreaker(
  opts: { window?: number; threshold?: number } = {},
): StormBreaker {
  const size = opts.window ?? STORM_WINDOW;
  const threshold = opts.threshold ?? STORM_THRESHOLD;
  let window: Array<{ key: string; mutating: boolean }> = [];
  const stubbed = new Set<string>();

  return {
    check(call, { mutating }) {
      const key = callKey(call.name, argsValue(call.arguments));
      // A state change makes re-reading legitimate: earlier reads no longer count.
      if (mutating) window = window.filter((e) => e.mutating);
      window.push({ key, mutating });
      if (window.length > size) window = window.slice(window.length - size);
      const count = window.filter((e) => e.key === key).length;
      if (count < threshold) return "ok";
      if (stubbed.has(key)) return "abort";
      stubbed.add(key);
      return "stub";
    },
    reset() {
      window = [];
      stubbed.clear();
    },
  };
}

function argsValue(args: Record<string, unknown> | string): unknown {
  if (typeof args !== "string") return args;
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

/** The tool result given instead of running a call the first time it storms (worded for the model). */
export function stormStubResult(name: string): string {
  return (
    `Not run: you have called ${name} with these exact arguments ${STORM_THRESHOLD} times in your ` +
    `last ${STORM_WINDOW} tool calls, and nothing has changed since, so the result would be the ` +
    "same. Use the result you already have, change the arguments, or take a different approach. " +
    "Repeating this call again will end the turn."
  );
}

/** The reason shown when a storm continues after the stub and the turn ends. */
export function stormAbortMessage(name: string): string {
  return (
    `Stopped: the model kept calling ${name} with the same arguments after being told it was ` +
    "repeating itself."
  );
}
