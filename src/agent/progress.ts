/**
 * Yields what a long-running piece of work reports while it runs (a hook starting, a command's
 * output), then returns its result: the agent is an async generator, and a callback cannot yield.
 */

/** Runs `work`, yielding every item it emits before it settles; returns (or throws) its result. */
export async function* withProgress<T, P>(
  work: (emit: (item: P) => void) => Promise<T>,
): AsyncGenerator<P, T> {
  const queue: P[] = [];
  let wake: (() => void) | null = null;
  let settled = false;
  const emit = (item: P) => {
    if (settled) return;
    queue.push(item);
    wake?.();
  };
  const promise = work(emit).finally(() => {
    settled = true;
    wake?.();
  });
  // A rejection is re-thrown below by `await promise`; this only keeps it from going unhandled.
  promise.catch(() => {});
  while (!settled || queue.length > 0) {
    const item = queue.shift();
    if (item !== undefined) {
      yield item;
      continue;
    }
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
    wake = null;
  }
  return await promise;
}
