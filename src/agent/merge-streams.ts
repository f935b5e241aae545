/**
 * Runs several event streams at once and yields their events as they come: how one reply's
 * consecutive `task` calls run concurrently (parallel-tasks.ts). At most `limit` streams run at
 * a time; the others start, in order, as running ones end. The streams' return values come back
 * in the order the streams were given, whatever order they finished in.
 */

/** Yields every stream's events interleaved; returns their results in input order. */
export async function* mergeStreams<E, R>(
  streams: readonly (() => AsyncGenerator<E, R>)[],
  limit: number,
): AsyncGenerator<E, R[]> {
  const results = new Array<R>(streams.length);
  type Step = { index: number; step: IteratorResult<E, R> };
  const running = new Map<number, { gen: AsyncGenerator<E, R>; next: Promise<Step> }>();
  const pull = (index: number, gen: AsyncGenerator<E, R>): void => {
    running.set(index, { gen, next: gen.next().then((step) => ({ index, step })) });
  };
  let started = 0;
  const startMore = (): void => {
    while (running.size < Math.max(1, limit) && started < streams.length) {
      const index = started++;
      const open = streams[index];
      if (open) pull(index, open());
    }
  };
  try {
    startMore();
    while (running.size > 0) {
      const { index, step } = await Promise.race([...running.values()].map((r) => r.next));
      const entry = running.get(index);
      if (!entry) continue;
      if (step.done) {
        results[index] = step.value;
        running.delete(index);
        startMore();
        continue;
      }
      // This stream waits while its event is handled (as under `yield*`); the others go on.
      yield step.value;
      pull(index, entry.gen);
    }
    return results;
  } finally {
    // The consumer stopped early (or a stream threw): close the ones still open. Not awaited: a
    // stream may be waiting on something (a question to the user) that its signal ends.
    for (const { gen } of running.values()) void gen.return(undefined as R).catch(() => {});
  }
}
