/** mergeStreams (src/agent/merge-streams.ts): interleaved events, a bound, results in order. */
import { describe, expect, it } from "vitest";
import { mergeStreams } from "../../src/agent/merge-streams.js";

describe("mergeStreams", () => {
  it("runs at most `limit` streams at once, starts the rest in order, returns results in input order", async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    // Stream i yields twice, then returns i; later streams finish sooner.
    const stream = (i: number) =>
      async function* (): AsyncGenerator<string, number> {
        started.push(i);
        running += 1;
        most = Math.max(most, running);
        yield `${i}:a`;
        await new Promise((r) => setTimeout(r, 5 * (6 - i)));
        yield `${i}:b`;
        running -= 1;
        return i;
      };
    const gen = mergeStreams([0, 1, 2, 3, 4, 5].map(stream), 4);
    const events: string[] = [];
    let step = await gen.next();
    while (!step.done) {
      events.push(step.value);
      step = await gen.next();
    }
    expect(step.value).toEqual([0, 1, 2, 3, 4, 5]);
    expect(most).toBe(4);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect([...events].sort()).toEqual(
      [0, 1, 2, 3, 4, 5].flatMap((i) => [`${i}:a`, `${i}:b`]).sort(),
    );
    // Interleaved: the first four started before the first of them ended.
    expect(events.slice(0, 4).every((e) => e.endsWith(":a"))).toBe(true);
  });

  it("closes the open streams when the consumer stops early", async () => {
    const closed: number[] = [];
    const stream = (i: number) =>
      async function* (): AsyncGenerator<string, number> {
        try {
          yield `${i}`;
          yield `${i}`;
          return i;
        } finally {
          closed.push(i);
        }
      };
    const gen = mergeStreams([0, 1].map(stream), 4);
    await gen.next();
    await gen.return([]);
    await new Promise((r) => setTimeout(r, 10));
    expect(closed.sort()).toEqual([0, 1]);
  });
});
