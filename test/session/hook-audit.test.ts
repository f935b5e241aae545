import { describe, expect, it } from "vitest";
import { appendHookAudit, hookStatsFromAudit, percentile } from "../../src/session/hook-audit.js";
import { tempDirPerTest } from "./helpers.js";

const home = tempDirPerTest("keel-home-");

function run(hookId: string, outcome: string, durationMs: number, startedAt = Date.now()) {
  appendHookAudit({
    keelHome: home.dir,
    sessionId: "s1",
    run: {
      hookId,
      event: hookId === "lint" ? "PostToolUse" : "PreToolUse",
      source: "/p/.keel/settings.json",
      command: `./${hookId}.sh`,
      outcome,
      exitCode: outcome === "block" ? 2 : 0,
      durationMs,
      startedAt,
    },
  });
}

describe("hook audit stats", () => {
  it("counts outcomes and computes nearest-rank p50/p95/max per hook", () => {
    for (let ms = 1; ms <= 100; ms++) run("guard", ms % 10 === 0 ? "block" : "pass", ms);
    run("guard", "timeout", 5000);
    run("lint", "warn", 7);
    run("lint", "error", 3);
    const stats = hookStatsFromAudit({ keelHome: home.dir });
    expect(stats).toEqual([
      {
        hookId: "lint",
        event: "PostToolUse",
        command: "./lint.sh",
        source: "/p/.keel/settings.json",
        runs: 2,
        blocks: 0,
        warnings: 1,
        errors: 1,
        timeouts: 0,
        p50Ms: 3,
        p95Ms: 7,
        maxMs: 7,
      },
      expect.objectContaining({
        hookId: "guard",
        runs: 101,
        blocks: 10,
        timeouts: 1,
        p50Ms: 51,
        p95Ms: 96,
        maxMs: 5000,
      }),
    ]);
  });

  it("filters by time", () => {
    run("guard", "pass", 1, Date.now() - 86_400_000);
    run("guard", "pass", 2);
    const recent = hookStatsFromAudit({ keelHome: home.dir, since: Date.now() - 3_600_000 });
    expect(recent[0]).toMatchObject({ runs: 1, maxMs: 2 });
  });

  it("percentile uses nearest rank", () => {
    expect(percentile([], 50)).toBe(0);
    expect(percentile([5], 95)).toBe(5);
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
    expect(percentile([1, 2, 3, 4], 95)).toBe(4);
  });
});
