/**
 * The compaction log (`$KEEL_HOME/compactions.jsonl`, 0600): one line per compaction once the
 * first request after it has been made — what its summary cost, and how many prompt tokens each
 * later request no longer sends. `keel stats` reads it.
 */
import { appendFileSync, chmodSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { priceFor } from "../llm/index.js";

const recordSchema = z.object({
  ts: z.string(),
  sessionId: z.string(),
  model: z.string(),
  trigger: z.enum(["manual", "auto"]),
  reason: z.enum(["threshold", "context_length", "manual"]),
  promptTokensBefore: z.number(),
  promptTokensAfter: z.number(),
  summaryCostUsd: z.number(),
});

/** One compaction as logged. */
export type CompactionLogRecord = z.infer<typeof recordSchema>;

/** The log's path. */
export function compactionLogPath(keelHome: string): string {
  return join(keelHome, "compactions.jsonl");
}

/** Appends one record (the file is created 0600). Throws on I/O errors (callers guard). */
export function appendCompactionRecord(keelHome: string, record: CompactionLogRecord): void {
  mkdirSync(keelHome, { recursive: true });
  const path = compactionLogPath(keelHome);
  appendFileSync(path, `${JSON.stringify(record)}\n`, { encoding: "utf8", mode: 0o600 });
  chmodSync(path, 0o600);
}

/** Sums over the log: count, summary cost, tokens and (at each model's miss price) USD saved per later request. */
export interface CompactionTotals {
  compactions: number;
  automatic: number;
  summaryCostUsd: number;
  /** Prompt tokens each later request no longer sends, summed over compactions. */
  tokensSavedPerRequest: number;
  /** Those tokens at the model's cache-miss price (what the next request would have paid). */
  usdSavedPerRequest: number;
}

/** Reads the log (records before `since` left out); unreadable lines are skipped. */
export function compactionTotals(keelHome: string, since?: number): CompactionTotals {
  const totals: CompactionTotals = {
    compactions: 0,
    automatic: 0,
    summaryCostUsd: 0,
    tokensSavedPerRequest: 0,
    usdSavedPerRequest: 0,
  };
  let text = "";
  try {
    text = readFileSync(compactionLogPath(keelHome), "utf8");
  } catch {
    return totals;
  }
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      continue;
    }
    const r = recordSchema.safeParse(raw);
    if (!r.success) continue;
    const at = Date.parse(r.data.ts);
    if (since !== undefined && at < since) continue;
    const saved = Math.max(0, r.data.promptTokensBefore - r.data.promptTokensAfter);
    totals.compactions += 1;
    if (r.data.trigger === "auto") totals.automatic += 1;
    totals.summaryCostUsd += r.data.summaryCostUsd;
    totals.tokensSavedPerRequest += saved;
    totals.usdSavedPerRequest += (saved * priceFor(r.data.model, new Date(at)).missPerM) / 1e6;
  }
  return totals;
}
