/** The global usage log (`$KEEL_HOME/usage.jsonl`): one record per model request, and sums over it. */
import { appendJsonLine, parseLine, readLines } from "./jsonl.js";
import { usageLogPath } from "./paths.js";
import { type UsageInput, type UsageRecord, usageRecordSchema } from "./records.js";

/** Appends one request's usage. Costs come from the caller (the llm layer owns pricing). */
export function appendUsage(opts: { keelHome: string; record: UsageInput }): UsageRecord {
  const record = stampUsage(opts.record);
  appendJsonLine(usageLogPath(opts.keelHome), record);
  return record;
}

/** The record with `ts` filled in and fields in a fixed order. */
export function stampUsage(input: UsageInput): UsageRecord {
  return {
    ts: input.ts ?? new Date().toISOString(),
    sessionId: input.sessionId,
    projectDir: input.projectDir,
    model: input.model,
    promptTokens: input.promptTokens,
    cacheHitTokens: input.cacheHitTokens,
    cacheMissTokens: input.cacheMissTokens,
    completionTokens: input.completionTokens,
    costUsd: input.costUsd,
    costWithoutCacheUsd: input.costWithoutCacheUsd,
    ...(input.simulated ? { simulated: true as const } : {}),
  };
}

/** Token and cost sums over some requests. */
export interface UsageTotals {
  requests: number;
  promptTokens: number;
  cacheHitTokens: number;
  cacheMissTokens: number;
  completionTokens: number;
  costUsd: number;
  costWithoutCacheUsd: number;
  /** costWithoutCacheUsd − costUsd. */
  savingsUsd: number;
  /** hit / (hit + miss); 0 when there were no prompt tokens. */
  cacheHitRatio: number;
  /** Requests Keel's simulator answered (no money spent; their prices are what it would cost). */
  simulatedRequests: number;
}

/** Totals, totals per model, and how many log lines could not be read. */
export interface UsageStats extends UsageTotals {
  byModel: Record<string, UsageTotals>;
  skippedLines: number;
}

/** Epoch milliseconds of the last local midnight ("today" in `keel stats --today`). */
export function startOfToday(now: Date = new Date()): number {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
}

/** Reads the usage log; records with `ts` before `since` (epoch ms or Date) are left out. */
export function readUsage(opts: {
  keelHome: string;
  since?: number | Date;
  sessionId?: string;
  projectDir?: string;
}): { records: UsageRecord[]; skippedLines: number } {
  const since = opts.since === undefined ? undefined : Number(opts.since);
  const { lines, tail } = readLines(usageLogPath(opts.keelHome));
  const records: UsageRecord[] = [];
  let skippedLines = 0;
  for (const line of tail ? [...lines, tail] : lines) {
    const parsed = usageRecordSchema.safeParse(parseLine(line.text));
    if (!parsed.success) {
      skippedLines += 1;
      continue;
    }
    const r = parsed.data;
    if (since !== undefined && !(Date.parse(r.ts) >= since)) continue;
    if (opts.sessionId !== undefined && r.sessionId !== opts.sessionId) continue;
    if (opts.projectDir !== undefined && r.projectDir !== opts.projectDir) continue;
    records.push(r);
  }
  return { records, skippedLines };
}

/** Sums the usage log, optionally since a time, for one session or project. */
export function usageStats(opts: {
  keelHome: string;
  since?: number | Date;
  sessionId?: string;
  projectDir?: string;
}): UsageStats {
  const { records, skippedLines } = readUsage(opts);
  const byModel: Record<string, UsageTotals> = {};
  for (const model of [...new Set(records.map((r) => r.model))].sort()) {
    byModel[model] = sumUsage(records.filter((r) => r.model === model));
  }
  return { ...sumUsage(records), byModel, skippedLines };
}

/** Sums usage records (pure; also for in-memory per-session totals). */
export function sumUsage(records: readonly UsageRecord[]): UsageTotals {
  const t = {
    requests: records.length,
    promptTokens: 0,
    cacheHitTokens: 0,
    cacheMissTokens: 0,
    completionTokens: 0,
    costUsd: 0,
    costWithoutCacheUsd: 0,
  };
  for (const r of records) {
    t.promptTokens += r.promptTokens;
    t.cacheHitTokens += r.cacheHitTokens;
    t.cacheMissTokens += r.cacheMissTokens;
    t.completionTokens += r.completionTokens;
    t.costUsd += r.costUsd;
    t.costWithoutCacheUsd += r.costWithoutCacheUsd;
  }
  const cached = t.cacheHitTokens + t.cacheMissTokens;
  return {
    ...t,
    savingsUsd: t.costWithoutCacheUsd - t.costUsd,
    cacheHitRatio: cached === 0 ? 0 : t.cacheHitTokens / cached,
    simulatedRequests: records.filter((r) => r.simulated).length,
  };
}
