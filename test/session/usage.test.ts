import { appendFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { usageLogPath } from "../../src/session/paths.js";
import { appendUsage, startOfToday, usageStats } from "../../src/session/usage.js";
import { tempDirPerTest } from "./helpers.js";

const home = tempDirPerTest("keel-home-");

function record(model: string, ts: Date, hit: number, miss: number, cost: number, noCache: number) {
  appendUsage({
    keelHome: home.dir,
    record: {
      ts: ts.toISOString(),
      sessionId: "s1",
      projectDir: "/p",
      model,
      promptTokens: hit + miss,
      cacheHitTokens: hit,
      cacheMissTokens: miss,
      completionTokens: 10,
      costUsd: cost,
      costWithoutCacheUsd: noCache,
    },
  });
}

describe("usage log", () => {
  it("sums requests, tokens, costs, savings and the hit ratio, per model too", () => {
    const now = new Date();
    record("flash", now, 900, 100, 0.01, 0.05);
    record("flash", now, 640, 360, 0.02, 0.04);
    record("pro", now, 0, 500, 0.1, 0.1);
    appendFileSync(usageLogPath(home.dir), "not json\n");
    const s = usageStats({ keelHome: home.dir });
    expect(s).toMatchObject({
      requests: 3,
      promptTokens: 2500,
      cacheHitTokens: 1540,
      cacheMissTokens: 960,
      completionTokens: 30,
      skippedLines: 1,
    });
    expect(s.costUsd).toBeCloseTo(0.13);
    expect(s.costWithoutCacheUsd).toBeCloseTo(0.19);
    expect(s.savingsUsd).toBeCloseTo(0.06);
    expect(s.cacheHitRatio).toBeCloseTo(1540 / 2500);
    expect(Object.keys(s.byModel)).toEqual(["flash", "pro"]);
    expect(s.byModel.flash).toMatchObject({ requests: 2, cacheHitTokens: 1540 });
    expect(s.byModel.flash?.cacheHitRatio).toBeCloseTo(1540 / 2000);
    expect(s.byModel.pro?.cacheHitRatio).toBe(0);
  });

  it("filters to today (since local midnight)", () => {
    const midnight = startOfToday();
    record("flash", new Date(midnight - 60_000), 1, 1, 1, 1);
    record("flash", new Date(midnight + 1), 5, 5, 2, 3);
    const today = usageStats({ keelHome: home.dir, since: startOfToday() });
    expect(today).toMatchObject({ requests: 1, cacheHitTokens: 5, costUsd: 2 });
    expect(usageStats({ keelHome: home.dir }).requests).toBe(2);
  });

  it("computes local midnight", () => {
    const d = new Date(2026, 2, 14, 15, 30, 12);
    expect(startOfToday(d)).toBe(new Date(2026, 2, 14, 0, 0, 0).getTime());
  });

  it("reports zeros for an empty or missing log", () => {
    expect(usageStats({ keelHome: home.dir })).toMatchObject({
      requests: 0,
      cacheHitRatio: 0,
      savingsUsd: 0,
      byModel: {},
    });
  });
});
