/**
 * One `abort` listener per signal, shared by every hook process watching it. A firing's hooks
 * all watch the same signal (the turn's); adding and removing an EventTarget listener per hook
 * run (with its options object validated each time) was a measurable part of one hook run's
 * CPU in Keel's own process (bench/hooks/per-hook-cpu.mjs), and a set's add and delete are not.
 */

/** What a signal's abort is reported to. */
export interface AbortWatcher {
  aborted(): void;
}

const watchers = new WeakMap<AbortSignal, Set<AbortWatcher>>();

/** Calls `w.aborted()` when `signal` aborts, unless `unwatchAbort` came first. The signal must
 *  not have aborted yet (a caller checks `signal.aborted` first). */
export function watchAbort(signal: AbortSignal, w: AbortWatcher): void {
  let set = watchers.get(signal);
  if (set === undefined) {
    const fresh = new Set<AbortWatcher>();
    signal.addEventListener(
      "abort",
      () => {
        const all = [...fresh];
        fresh.clear();
        for (const x of all) x.aborted();
      },
      { once: true },
    );
    watchers.set(signal, fresh);
    set = fresh;
  }
  set.add(w);
}

/** Stops reporting `signal`'s abort to `w`. */
export function unwatchAbort(signal: AbortSignal, w: AbortWatcher): void {
  watchers.get(signal)?.delete(w);
}
