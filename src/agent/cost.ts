/**
 * Cost of one request. Stopgap until the llm layer's dated pricing table lands
 * (src/llm/pricing.ts); then this file forwards to it.
 */
import type { Usage } from "../llm/types.js";

/** USD per 1M tokens: cache hit, cache miss, output (reference/deepseek-api.md, 2026-04-26). */
const PRICES: Record<string, { hit: number; miss: number; out: number }> = {
  "deepseek-v4-flash": { hit: 0.0028, miss: 0.14, out: 0.28 },
  "deepseek-v4-pro": { hit: 0.0145, miss: 1.74, out: 3.48 },
  "deepseek-chat": { hit: 0.028, miss: 0.28, out: 0.42 },
  "deepseek-reasoner": { hit: 0.028, miss: 0.28, out: 0.42 },
};
const FALLBACK = { hit: 0.0028, miss: 0.14, out: 0.28 };

/** What a request cost, and what it would have cost with every input token a cache miss. */
export function requestCost(
  model: string,
  usage: Usage,
): { costUsd: number; costWithoutCacheUsd: number } {
  const p = PRICES[model] ?? FALLBACK;
  const out = usage.completionTokens * p.out;
  return {
    costUsd: (usage.cacheHitTokens * p.hit + usage.cacheMissTokens * p.miss + out) / 1e6,
    costWithoutCacheUsd: ((usage.cacheHitTokens + usage.cacheMissTokens) * p.miss + out) / 1e6,
  };
}
