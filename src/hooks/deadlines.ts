/**
 * Hook processes' timeouts on one timer. Each run used to arm and clear a timer of its own
 * (a Timeout object, a timer-list insert and removal, an async resource: a measurable part of
 * one hook run's CPU in Keel's own process, bench/hooks/per-hook-cpu.mjs). Here one timer is
 * armed for the earliest deadline; a later deadline (the usual case: hooks of one firing share
 * their timeout) changes nothing but a set. The timer keeps Node running only while a deadline
 * is pending, as each run's own timer did.
 */
import { performance } from "node:perf_hooks";

/** Something that expires at `due` (performance.now() milliseconds). */
export interface Expiring {
  readonly due: number;
  expire(): void;
}

const pending = new Set<Expiring>();
let timer: NodeJS.Timeout | undefined;
/** When the armed timer fires (Infinity: none armed). */
let timerDue = Number.POSITIVE_INFINITY;
/** A timer fires up to a millisecond before the time asked (libuv counts whole milliseconds). */
const EARLY_MS = 1;

/** Calls `e.expire()` at `e.due`, unless `removeDeadline(e)` came first. */
export function addDeadline(e: Expiring): void {
  pending.add(e);
  if (e.due < timerDue) arm(e.due);
  else timer?.ref();
}

/** Forgets `e`'s deadline. */
export function removeDeadline(e: Expiring): void {
  // The timer stays armed for whatever comes next, but no longer holds Node open.
  if (pending.delete(e) && pending.size === 0) timer?.unref();
}

function arm(due: number): void {
  if (timer !== undefined) clearTimeout(timer);
  timerDue = due;
  timer = setTimeout(expireDue, Math.max(1, Math.ceil(due - performance.now())));
}

/** Expires what is due and arms the timer for the earliest deadline left. */
function expireDue(): void {
  timer = undefined;
  timerDue = Number.POSITIVE_INFINITY;
  const now = performance.now();
  for (const e of [...pending]) {
    if (e.due > now + EARLY_MS || !pending.has(e)) continue;
    pending.delete(e);
    e.expire();
  }
  let next = Number.POSITIVE_INFINITY;
  for (const e of pending) next = Math.min(next, e.due);
  if (next < timerDue) arm(next);
}
