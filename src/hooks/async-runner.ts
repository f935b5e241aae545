/**
 * Background runs of `async: true` hooks: bounded concurrency, results collected for the next
 * turn, and a shutdown that waits up to a budget and then kills what is left.
 */
import type { AsyncHookResult } from "./types.js";

/** Runs background tasks, at most `concurrency` at a time. */
export class AsyncRunner {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly pending = new Set<Promise<void>>();
  private readonly controller = new AbortController();
  private results: AsyncHookResult[] = [];

  constructor(private readonly concurrency: number) {}

  /**
   * Queues a task; it gets a signal that aborts at shutdown. `onDone` runs once its result is
   * collectable (so a listener woken by it finds the result in take()). Tasks must not throw.
   */
  start(
    task: (signal: AbortSignal) => Promise<AsyncHookResult>,
    onDone?: (result: AsyncHookResult) => void,
  ): void {
    const run = (async () => {
      if (this.running >= this.concurrency) {
        await new Promise<void>((resolve) => this.waiting.push(resolve));
      }
      this.running++;
      try {
        const result = await task(this.controller.signal);
        this.results.push(result);
        onDone?.(result);
      } catch {
        // Tasks report their own failures as results; nothing to add here.
      } finally {
        this.running--;
        this.waiting.shift()?.();
      }
    })();
    this.pending.add(run);
    void run.finally(() => this.pending.delete(run));
  }

  /** Results finished since the last call. */
  take(): AsyncHookResult[] {
    const out = this.results;
    this.results = [];
    return out;
  }

  /** How many tasks are queued or running. */
  get size(): number {
    return this.pending.size;
  }

  /** Waits up to `budgetMs` for everything, then aborts the rest and waits for them to end. */
  async shutdown(budgetMs: number): Promise<void> {
    if (this.pending.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...this.pending]),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, Math.max(0, budgetMs));
        }),
      ]);
      clearTimeout(timer);
    }
    this.controller.abort();
    for (const wake of this.waiting.splice(0)) wake();
    await Promise.allSettled([...this.pending]);
  }
}
