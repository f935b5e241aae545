import { describe, expect, it } from "vitest";
import {
  costUsd,
  costWithoutCacheUsd,
  loadModelTable,
  priceFor,
  referenceCostUsd,
} from "../../src/llm/pricing.js";
import type { Usage } from "../../src/llm/types.js";

const usage: Usage = {
  promptTokens: 1_000_000,
  cacheHitTokens: 900_000,
  cacheMissTokens: 100_000,
  completionTokens: 10_000,
  reasoningTokens: 0,
};

describe("pricing", () => {
  it("loads the dated table", () => {
    const loaded = loadModelTable();
    expect(loaded.ok).toBe(true);
    if (loaded.ok)
      expect(Object.keys(loaded.table.models)).toEqual(
        expect.arrayContaining([
          "deepseek-v4-flash",
          "deepseek-v4-pro",
          "deepseek-chat",
          "deepseek-reasoner",
        ]),
      );
  });

  it("applies the 2026-04-26 cut of cache-hit prices", () => {
    expect(priceFor("deepseek-v4-flash", new Date("2026-04-25T12:00:00Z")).hitPerM).toBe(0.028);
    expect(priceFor("deepseek-v4-flash", new Date("2026-04-26T00:00:00Z")).hitPerM).toBe(0.0028);
    expect(priceFor("deepseek-v4-pro", new Date("2026-05-01"))).toMatchObject({
      hitPerM: 0.0145,
      missPerM: 1.74,
      outputPerM: 3.48,
      fallback: false,
    });
    expect(priceFor("deepseek-chat", new Date("2025-12-01"))).toMatchObject({
      hitPerM: 0.028,
      missPerM: 0.28,
      outputPerM: 0.42,
    });
  });

  it("prices an unknown model as the default one, flagged", () => {
    const p = priceFor("gpt-unknown", new Date("2026-05-01"));
    expect(p).toMatchObject({
      model: "gpt-unknown",
      pricedAs: "deepseek-v4-flash",
      fallback: true,
      missPerM: 0.14,
    });
  });

  it("computes cost, cost without cache and the reference cost", () => {
    const date = new Date("2026-05-01");
    expect(costUsd("deepseek-v4-flash", usage, date)).toBeCloseTo(
      (900_000 * 0.0028 + 100_000 * 0.14 + 10_000 * 0.28) / 1e6,
      12,
    );
    expect(costWithoutCacheUsd("deepseek-v4-flash", usage, date)).toBeCloseTo(
      (1_000_000 * 0.14 + 10_000 * 0.28) / 1e6,
      12,
    );
    expect(referenceCostUsd(usage)).toEqual({ label: "Claude Sonnet 4.x", costUsd: 3 + 0.15 });
  });
});
