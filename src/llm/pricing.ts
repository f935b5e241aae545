/**
 * Model prices from the dated table `data/models.json` (never hard-coded): the price in force on
 * a date, the cost of a request, the cost it would have had without the cache, and the cost at a
 * reference model's list price for "savings vs" comparisons.
 */
import { existsSync, readFileSync } from "node:fs";
import { z } from "zod";
import { EFFORT_LEVELS } from "./effort-levels.js";
import type { Usage } from "./types.js";

/** Effort levels a model entry may name. */
const effortLevel = z.enum(EFFORT_LEVELS);

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "expected a date YYYY-MM-DD");
const price = z.object({
  from: day,
  hitPerM: z.number().nonnegative(),
  missPerM: z.number().nonnegative(),
  outputPerM: z.number().nonnegative(),
});

const table = z.object({
  defaultModel: z.string(),
  cheapModel: z.string(),
  models: z.record(
    z.string(),
    z.object({
      contextTokens: z.int().positive(),
      retiredAfter: day.optional(),
      /** Takes images (`image_url` content parts): src/agent/images.ts refuses them otherwise. */
      vision: z.boolean().optional(),
      /** Answered only by Keel's simulator (`keel sim`): not offered by the TUI's /model. */
      simulatorOnly: z.boolean().optional(),
      prices: z.array(price).min(1),
      /** What the endpoint takes to set an effort level (effort.ts); absent: none. */
      effort: z
        .strictObject({
          reasoningEffort: z.array(effortLevel).min(1),
          thinking: z.boolean().optional(),
        })
        .optional(),
    }),
  ),
  reference: z.object({
    model: z.string(),
    label: z.string(),
    inputPerM: z.number().nonnegative(),
    cacheReadPerM: z.number().nonnegative(),
    cacheWritePerM: z.number().nonnegative(),
    outputPerM: z.number().nonnegative(),
  }),
});

/** The parsed model table. */
export type ModelTable = z.infer<typeof table>;

/** The price of one model on one date (USD per 1M tokens). */
export interface ModelPrice {
  /** The model asked for. */
  model: string;
  /** The model whose price this is (the default model when `fallback`). */
  pricedAs: string;
  /** The date the price entry applies from. */
  from: string;
  hitPerM: number;
  missPerM: number;
  outputPerM: number;
  /** True when the model is not in the table and the default model's price was used. */
  fallback: boolean;
}

/**
 * Where the table lives: `data/` at the package root — two levels above src/llm and dist/llm, three
 * above the CLI bundle's chunks (dist/bundle/chunks/), so the nearest one up the tree is taken.
 */
export const MODELS_FILE = findUp("data/models.json");

function findUp(rel: string): URL {
  for (const up of ["../../", "../../../", "../../../../"]) {
    const url = new URL(up + rel, import.meta.url);
    if (existsSync(url)) return url;
  }
  return new URL(`../../${rel}`, import.meta.url);
}

let cached: { ok: true; table: ModelTable } | { ok: false; error: string } | null = null;

/** Loads (once) and validates the model table. Never throws. */
export function loadModelTable(): { ok: true; table: ModelTable } | { ok: false; error: string } {
  if (cached) return cached;
  try {
    const parsed = table.safeParse(JSON.parse(readFileSync(MODELS_FILE, "utf8")));
    if (parsed.success) cached = { ok: true, table: parsed.data };
    else {
      const issue = parsed.error.issues[0];
      cached = {
        ok: false,
        error: `${MODELS_FILE.pathname}: ${issue?.path.join(".")}: ${issue?.message}`,
      };
    }
  } catch (err) {
    cached = {
      ok: false,
      error: `${MODELS_FILE.pathname}: ${err instanceof Error ? err.message : err}`,
    };
  }
  return cached;
}

/** The price in force for `model` on `date` (default now); unknown models get the default's price, flagged. */
export function priceFor(model: string, date: Date = new Date()): ModelPrice {
  const loaded = loadModelTable();
  if (!loaded.ok) {
    return {
      model,
      pricedAs: model,
      from: "",
      hitPerM: 0,
      missPerM: 0,
      outputPerM: 0,
      fallback: true,
    };
  }
  const t = loaded.table;
  const known = t.models[model];
  const pricedAs = known ? model : t.defaultModel;
  const entries = (known ?? t.models[t.defaultModel])?.prices ?? [];
  const today = date.toISOString().slice(0, 10);
  // Entries are dated; before the first one, the first one is the best guess.
  let chosen = entries[0];
  for (const entry of entries)
    if (entry.from <= today && (!chosen || entry.from >= chosen.from)) chosen = entry;
  return {
    model,
    pricedAs,
    from: chosen?.from ?? "",
    hitPerM: chosen?.hitPerM ?? 0,
    missPerM: chosen?.missPerM ?? 0,
    outputPerM: chosen?.outputPerM ?? 0,
    fallback: !known,
  };
}

/** Cost of one request: (hit·P_hit + miss·P_miss + completion·P_out) / 1e6. */
export function costUsd(model: string, usage: Usage, date?: Date): number {
  const p = priceFor(model, date);
  return (
    (usage.cacheHitTokens * p.hitPerM +
      usage.cacheMissTokens * p.missPerM +
      usage.completionTokens * p.outputPerM) /
    1e6
  );
}

/** What the request would have cost if every prompt token were a cache miss. */
export function costWithoutCacheUsd(model: string, usage: Usage, date?: Date): number {
  const p = priceFor(model, date);
  return (usage.promptTokens * p.missPerM + usage.completionTokens * p.outputPerM) / 1e6;
}

/** The same tokens at the reference model's list price (input and output, no cache): "savings vs". */
export function referenceCostUsd(usage: Usage): { label: string; costUsd: number } {
  const loaded = loadModelTable();
  if (!loaded.ok) return { label: "reference", costUsd: 0 };
  const r = loaded.table.reference;
  return {
    label: r.label,
    costUsd: (usage.promptTokens * r.inputPerM + usage.completionTokens * r.outputPerM) / 1e6,
  };
}

/** Whether `model` declares `vision: true` in data/models.json (unknown models: no). */
export function modelTakesImages(model: string): boolean {
  const loaded = loadModelTable();
  return loaded.ok && loaded.table.models[model]?.vision === true;
}
