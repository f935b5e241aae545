/** Per-hook counters and duration percentiles (`keel hooks stats`, docs/hooks.md). */
import type { HookDefinition, HookRunRecord, HookStats } from "./types.js";

/** Durations kept per hook for percentiles (the most recent ones). */
const MAX_SAMPLES = 2000;

interface Entry {
  order: number;
  base: Omit<HookStats, "p50Ms" | "p95Ms" | "maxMs">;
  durations: number[];
  maxMs: number;
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? 0;
}

/** Collects run records into per-hook stats. */
export class StatsCollector {
  private readonly entries = new Map<string, Entry>();

  /** Counts one finished run. */
  record(hook: HookDefinition, run: HookRunRecord): void {
    let e = this.entries.get(hook.id);
    if (!e) {
      e = {
        order: hook.order,
        base: {
          hookId: hook.id,
          event: hook.event,
          command: run.command,
          source: hook.source.path,
          runs: 0,
          blocks: 0,
          warnings: 0,
          errors: 0,
          timeouts: 0,
        },
        durations: [],
        maxMs: 0,
      };
      this.entries.set(hook.id, e);
    }
    e.base.runs++;
    if (run.outcome === "block") e.base.blocks++;
    else if (run.outcome === "warn") e.base.warnings++;
    else if (run.outcome === "error") e.base.errors++;
    else if (run.outcome === "timeout") e.base.timeouts++;
    e.durations.push(run.durationMs);
    if (e.durations.length > MAX_SAMPLES) e.durations.shift();
    e.maxMs = Math.max(e.maxMs, run.durationMs);
  }

  /** A snapshot of every hook's stats, in configuration order. */
  snapshot(): HookStats[] {
    const entries = [...this.entries.values()].sort((a, b) => a.order - b.order);
    return entries.map((e) => {
      const sorted = [...e.durations].sort((a, b) => a - b);
      return {
        ...e.base,
        p50Ms: percentile(sorted, 50),
        p95Ms: percentile(sorted, 95),
        maxMs: e.maxMs,
      };
    });
  }
}
