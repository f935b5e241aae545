/**
 * `keel stats [--today] [--json]`: tokens, cost, cache hit ratio and what the cache saved, from
 * the usage log (`$KEEL_HOME/usage.jsonl`). Costs are the ones recorded per request (priced when
 * the request was made), so a later price change does not rewrite history.
 */

import type { Command } from "commander";
import { type CompactionTotals, compactionTotals } from "../../agent/compaction-log.js";
import { sanitizeJson } from "../../base/index.js";
import { loadModelTable } from "../../llm/pricing.js";
import {
  keelHomeFrom,
  startOfToday,
  type UsageStats,
  type UsageTotals,
  usageStats,
} from "../../session/index.js";
import { plural, table } from "../format/text.js";
import { writeStdout } from "../stdout.js";
import { formatCost } from "../tui/format.js";

/** Options of `keel stats`. */
export interface StatsOptions {
  today?: boolean;
  json?: boolean;
}

/** A reference price to compare against (USD per 1M tokens, no caching). */
export interface ReferencePrice {
  label: string;
  /** The model id the price is for: no comparison with usage that was that model itself. */
  model?: string;
  inputPerMillion: number;
  outputPerMillion: number;
}

/** What the same tokens would have cost at a reference price. */
export function referenceCost(totals: UsageTotals, price: ReferencePrice): number {
  return (
    (totals.promptTokens * price.inputPerMillion +
      totals.completionTokens * price.outputPerMillion) /
    1e6
  );
}

/** The JSON of `keel stats --json`. */
export function statsJson(
  stats: UsageStats,
  opts: { since: number | null; reference: ReferencePrice | null },
): Record<string, unknown> {
  const totals = (t: UsageTotals) => ({
    requests: t.requests,
    promptTokens: t.promptTokens,
    cacheHitTokens: t.cacheHitTokens,
    cacheMissTokens: t.cacheMissTokens,
    completionTokens: t.completionTokens,
    costUsd: round(t.costUsd),
    costWithoutCacheUsd: round(t.costWithoutCacheUsd),
    savingsUsd: round(t.savingsUsd),
    cacheHitRatio: t.cacheHitRatio,
  });
  const out: Record<string, unknown> = {
    period: opts.since === null ? "all" : "today",
    since: opts.since === null ? null : new Date(opts.since).toISOString(),
    ...totals(stats),
    simulatedRequests: stats.simulatedRequests,
  };
  if (opts.reference) {
    const cost = referenceCost(stats, opts.reference);
    out.reference = {
      label: opts.reference.label,
      inputPerMillion: opts.reference.inputPerMillion,
      outputPerMillion: opts.reference.outputPerMillion,
      costUsd: round(cost),
      savingsUsd: round(cost - stats.costUsd),
    };
  }
  out.byModel = Object.fromEntries(Object.entries(stats.byModel).map(([m, t]) => [m, totals(t)]));
  out.skippedLines = stats.skippedLines;
  return out;
}

/** What `keel stats` prints. */
export function renderStats(
  stats: UsageStats,
  opts: { today: boolean; reference: ReferencePrice | null },
): string[] {
  const period = opts.today ? "today" : "all time";
  if (stats.requests === 0) {
    const lines = [
      opts.today
        ? "No model requests recorded today."
        : 'No usage recorded yet. Run `keel` or `keel run "<prompt>"` and check back.',
    ];
    if (stats.skippedLines > 0) lines.push(skippedLine(stats.skippedLines));
    return lines;
  }
  const models = Object.keys(stats.byModel);
  const rows: string[][] = [
    ["prompt tokens", count(stats.promptTokens), ""],
    ["  cache hit", count(stats.cacheHitTokens), `${percent(stats.cacheHitRatio)} of prompt`],
    ["  cache miss", count(stats.cacheMissTokens), ""],
    ["completion tokens", count(stats.completionTokens), ""],
    ["cost", usd(stats.costUsd), ""],
    [
      "without cache",
      usd(stats.costWithoutCacheUsd),
      `the cache saved ${usd(stats.savingsUsd)}${share(stats.savingsUsd, stats.costWithoutCacheUsd)}`,
    ],
  ];
  if (opts.reference && comparisonIsMeaningful(stats, opts.reference)) {
    const ref = referenceCost(stats, opts.reference);
    // An estimate, and said to be one: another model would not have used the same tokens.
    const ratio = stats.costUsd > 0 ? `, ~${(ref / stats.costUsd).toFixed(1)}× what Keel cost` : "";
    rows.push([
      `${opts.reference.label} (est.)`,
      `~${usd(ref)}`,
      `estimate: the same tokens at $${opts.reference.inputPerMillion} in / $${opts.reference.outputPerMillion} out per 1M, no cache${ratio}`,
    ]);
  }
  const lines = [
    `Usage (${period}): ${plural(stats.requests, "request")}, ${plural(models.length, "model")}`,
    ...table(rows, { indent: "  " }),
  ];
  if (models.length > 1) {
    lines.push("", "By model:");
    const modelRows = Object.entries(stats.byModel).map(([model, t]) => [
      model,
      plural(t.requests, "request"),
      `hit ${percent(t.cacheHitRatio)}`,
      usd(t.costUsd),
    ]);
    lines.push(...table(modelRows, { indent: "  " }));
  }
  if (stats.simulatedRequests > 0) {
    const all = stats.simulatedRequests === stats.requests;
    lines.push(
      "",
      `${all ? "All" : `${stats.simulatedRequests} of`} these requests went to Keel's simulator (keel sim): no money was spent on them; their costs are what the same tokens would cost.`,
    );
  }
  if (stats.skippedLines > 0) lines.push("", skippedLine(stats.skippedLines));
  return lines;
}

/**
 * Whether "the same tokens at another model's price" says anything: not when no money was
 * spent (every request went to the simulator, or the models used have no price), nor when the
 * usage was the reference model itself.
 */
export function comparisonIsMeaningful(stats: UsageStats, reference: ReferencePrice): boolean {
  if (stats.simulatedRequests >= stats.requests || stats.costUsd <= 0) return false;
  const model = reference.model;
  return model === undefined || !Object.keys(stats.byModel).some((m) => m.startsWith(model));
}

/** Runs `keel stats`; returns the text to print. */
export async function runStats(
  opts: StatsOptions,
  env: { keelHome?: string; now?: Date; reference?: ReferencePrice | null } = {},
): Promise<string> {
  const keelHome = env.keelHome ?? keelHomeFrom();
  const since = opts.today === true ? startOfToday(env.now) : null;
  const stats = usageStats(since === null ? { keelHome } : { keelHome, since });
  const reference = env.reference === undefined ? defaultReference() : env.reference;
  const compactions = compactionTotals(keelHome, since ?? undefined);
  if (opts.json === true) {
    const json = { ...statsJson(stats, { since, reference }), compactions };
    return `${sanitizeJson(json, 2)}\n`;
  }
  const lines = renderStats(stats, { today: opts.today === true, reference });
  return `${[...lines, ...compactionLines(compactions)].join("\n")}\n`;
}

/** The comparison price from the pricing data, when it has one. */
export function defaultReference(): ReferencePrice | null {
  const loaded = loadModelTable();
  if (!loaded.ok) return null;
  const r = loaded.table.reference;
  return {
    label: r.label,
    model: r.model,
    inputPerMillion: r.inputPerM,
    outputPerMillion: r.outputPerM,
  };
}

/** Registers `keel stats`. */
export function register(program: Command): void {
  program
    .command("stats")
    .description("Show tokens, cost, cache hit ratio and cache savings from the usage log")
    .option("--today", "only requests made since local midnight")
    .option("--json", "print JSON")
    .action(async (opts: StatsOptions) => {
      writeStdout(await runStats(opts));
    });
}

/** What compactions cost (their summary requests) and saved (prompt tokens per later request). */
export function compactionLines(c: CompactionTotals): string[] {
  if (c.compactions === 0) return [];
  return [
    "",
    `Compactions: ${c.compactions} (${c.automatic} automatic); the summaries cost ${usd(c.summaryCostUsd)}`,
    `  each later request sends ${count(c.tokensSavedPerRequest)} fewer prompt tokens (≈ ${usd(c.usdSavedPerRequest)} at the cache-miss price)`,
  ];
}

function skippedLine(n: number): string {
  return `(${plural(n, "unreadable line")} in the usage log skipped)`;
}

function count(n: number): string {
  return n.toLocaleString("en-US");
}

function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)}%`;
}

function share(part: number, whole: number): string {
  return whole > 0 ? ` (${percent(part / whole)})` : "";
}

/** Dollars, in the TUI's one cost format (four decimals below a dollar, cents above). */
export const usd = formatCost;

function round(n: number): number {
  return Math.round(n * 1e8) / 1e8;
}
