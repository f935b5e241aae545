import { describe, expect, it } from "vitest";
import { withProgress } from "../../src/agent/progress.js";

async function drain<P, T>(gen: AsyncGenerator<P, T>): Promise<{ items: P[]; result: T }> {
  const items: P[] = [];
  for (;;) {
    const next = await gen.next();
    if (next.done) return { items, result: next.value };
    items.push(next.value);
  }
}

describe("withProgress", () => {
  it("yields what the work emits while it runs, in order, then returns its result", async () => {
    const out = await drain(
      withProgress<string, number>(async (emit) => {
        emit(1);
        await new Promise((r) => setImmediate(r));
        emit(2);
        emit(3);
        return "done";
      }),
    );
    expect(out).toEqual({ items: [1, 2, 3], result: "done" });
  });

  it("yields an item before the work has finished", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const gen = withProgress<string, string>(async (emit) => {
      emit("started");
      await gate;
      return "end";
    });
    expect(await gen.next()).toEqual({ done: false, value: "started" });
    release();
    expect(await gen.next()).toEqual({ done: true, value: "end" });
  });

  it("rethrows the work's error and drops emits after it settled", async () => {
    let late: ((n: number) => void) | undefined;
    const gen = withProgress<void, number>(async (emit) => {
      late = emit;
      throw new Error("boom");
    });
    await expect(drain(gen)).rejects.toThrow("boom");
    late?.(9);
  });
});
