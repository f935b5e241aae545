import { appendFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  defaultReference,
  referenceCost,
  renderStats,
  runStats,
  usd,
} from "../../src/cli/commands/stats.js";
import { appendUsage, startOfToday, usageLogPath, usageStats } from "../../src/session/index.js";
import { keel } from "../helpers/cli.js";
import { type TempHome, tempKeelHome } from "../helpers/temp-home.js";

let keelHome: string;
let temp: TempHome;

beforeEach(() => {
  temp = tempKeelHome("keel-stats-cli-");
  keelHome = temp.keelHome;
});

afterEach(() => temp.restore());

function usage(opts: {
  ts: string;
  model?: string;
  hit: number;
  miss: number;
  out: number;
  cost: number;
  noCache: number;
  simulated?: boolean;
}): void {
  appendUsage({
    keelHome,
    record: {
      ts: opts.ts,
      sessionId: "s1",
      projectDir: "/p",
      model: opts.model ?? "deepseek-v4-flash",
      promptTokens: opts.hit + opts.miss,
      cacheHitTokens: opts.hit,
      cacheMissTokens: opts.miss,
      completionTokens: opts.out,
      costUsd: opts.cost,
      costWithoutCacheUsd: opts.noCache,
      ...(opts.simulated ? { simulated: true as const } : {}),
    },
  });
}

const longAgo = "2020-01-02T03:04:05.000Z";
const now = () => new Date().toISOString();

describe("keel stats", () => {
  it("with no usage log: a friendly line, exit 0; --json gives zeros", async () => {
    const r = await keel(["stats"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      'No usage recorded yet. Run `keel` or `keel run "<prompt>"` and check back.\n',
    );
    const today = await keel(["stats", "--today"]);
    expect(today.stdout).toBe("No model requests recorded today.\n");
    const json = JSON.parse((await keel(["stats", "--json"])).stdout);
    expect(json).toMatchObject({
      period: "all",
      requests: 0,
      costUsd: 0,
      cacheHitRatio: 0,
      byModel: {},
    });
  });

  it("sums tokens, cost, hit ratio and savings over the whole log", async () => {
    usage({ ts: longAgo, hit: 0, miss: 2000, out: 100, cost: 0.0003, noCache: 0.0003 });
    usage({ ts: now(), hit: 9000, miss: 1000, out: 400, cost: 0.0004, noCache: 0.0016 });
    const r = await keel(["stats"]);
    expect(r.code).toBe(0);
    const text = r.stdout;
    expect(text).toMatch(/^Usage \(all time\): 2 requests, 1 model\n/);
    expect(text).toMatch(/prompt tokens\s+12,000\n/);
    expect(text).toMatch(/cache hit\s+9,000\s+75\.0% of prompt\n/);
    expect(text).toMatch(/cache miss\s+3,000\n/);
    expect(text).toMatch(/completion tokens\s+500\n/);
    expect(text).toMatch(/cost\s+\$0\.0007\n/);
    expect(text).toMatch(/without cache\s+\$0\.0019\s+the cache saved \$0\.0012 \(63\.2%\)\n/);
    expect(text).not.toContain("By model");
  });

  it("--today leaves out earlier requests", async () => {
    usage({ ts: longAgo, hit: 0, miss: 2000, out: 100, cost: 0.0003, noCache: 0.0003 });
    usage({ ts: now(), hit: 900, miss: 100, out: 40, cost: 0.00004, noCache: 0.00016 });
    const r = await keel(["stats", "--today"]);
    expect(r.stdout).toMatch(/^Usage \(today\): 1 request, 1 model\n/);
    expect(r.stdout).toMatch(/prompt tokens\s+1,000\n/);
    const json = JSON.parse((await keel(["stats", "--today", "--json"])).stdout);
    expect(json.period).toBe("today");
    expect(Date.parse(json.since)).toBe(startOfToday());
    expect(json.requests).toBe(1);
    expect(json.cacheHitRatio).toBeCloseTo(0.9);
  });

  it("--json has the totals, savings and per-model figures", async () => {
    usage({
      ts: now(),
      model: "deepseek-v4-pro",
      hit: 500,
      miss: 500,
      out: 10,
      cost: 0.002,
      noCache: 0.003,
    });
    usage({
      ts: now(),
      model: "deepseek-v4-flash",
      hit: 900,
      miss: 100,
      out: 10,
      cost: 0.0001,
      noCache: 0.0002,
    });
    const json = JSON.parse((await keel(["stats", "--json"])).stdout);
    expect(json).toMatchObject({
      period: "all",
      since: null,
      requests: 2,
      promptTokens: 2000,
      cacheHitTokens: 1400,
      cacheMissTokens: 600,
      completionTokens: 20,
      costUsd: 0.0021,
      costWithoutCacheUsd: 0.0032,
      savingsUsd: 0.0011,
      cacheHitRatio: 0.7,
      skippedLines: 0,
    });
    expect(Object.keys(json.byModel)).toEqual(["deepseek-v4-flash", "deepseek-v4-pro"]);
    expect(json.byModel["deepseek-v4-pro"]).toMatchObject({
      requests: 1,
      cacheHitRatio: 0.5,
      costUsd: 0.002,
    });
    const text = (await keel(["stats"])).stdout;
    expect(text).toMatch(
      /By model:\n {2}deepseek-v4-flash\s+1 request\s+hit 90\.0%\s+\$0\.0001\n {2}deepseek-v4-pro\s+1 request\s+hit 50\.0%\s+\$0\.0020\n/,
    );
  });

  it("reports unreadable lines in the log without failing", async () => {
    usage({ ts: now(), hit: 10, miss: 10, out: 1, cost: 0.00001, noCache: 0.00002 });
    appendFileSync(usageLogPath(keelHome), "not json\n");
    const r = await keel(["stats"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\(1 unreadable line in the usage log skipped\)\n$/);
  });
});

describe("keel stats: reference price from the pricing data", () => {
  it("compares with the reference model of data/models.json", async () => {
    const ref = defaultReference();
    expect(ref).not.toBeNull();
    if (!ref) return;
    expect(ref.label).toMatch(/Sonnet/);
    usage({ ts: now(), hit: 900_000, miss: 100_000, out: 10_000, cost: 0.0434, noCache: 0.1708 });
    const cost = (1_000_000 * ref.inputPerMillion + 10_000 * ref.outputPerMillion) / 1e6;
    const r = await keel(["stats"]);
    expect(r.stdout).toContain(`${ref.label} (est.)  `);
    expect(r.stdout).toContain(usd(cost));
    const json = JSON.parse((await keel(["stats", "--json"])).stdout);
    expect(json.reference.costUsd).toBeCloseTo(cost, 8);
    expect(json.reference.savingsUsd).toBeCloseTo(cost - 0.0434, 8);
  });
});

describe("keel stats: the comparison only where it means something (issue 29)", () => {
  const tokens = { hit: 900_000, miss: 100_000, out: 10_000, cost: 0.0434, noCache: 0.1708 };

  it("not for requests that all went to the simulator (no money spent)", async () => {
    usage({ ts: now(), ...tokens, simulated: true });
    const r = await keel(["stats"]);
    expect(r.stdout).toContain("went to Keel's simulator");
    expect(r.stdout).not.toContain("(est.)");
  });

  it("not for usage that was the reference model itself", async () => {
    const ref = defaultReference();
    expect(ref?.model).toBeDefined();
    usage({ ts: now(), ...tokens, model: `${ref?.model}-20250514` });
    const r = await keel(["stats"]);
    expect(r.stdout).not.toContain("(est.)");
  });

  it("for real requests to another model", async () => {
    usage({ ts: now(), ...tokens, simulated: true });
    usage({ ts: now(), ...tokens });
    const r = await keel(["stats"]);
    expect(r.stdout).toContain(`${defaultReference()?.label} (est.)  `);
  });
});

describe("stats formatting", () => {
  it("compares with a reference price when one is given", async () => {
    usage({ ts: now(), hit: 900_000, miss: 100_000, out: 10_000, cost: 0.0434, noCache: 0.1708 });
    const reference = { label: "Claude Sonnet", inputPerMillion: 3, outputPerMillion: 15 };
    const text = await runStats({}, { keelHome, reference });
    expect(text).toMatch(
      /Claude Sonnet \(est\.\)\s+~\$3\.15\s+estimate: the same tokens at \$3 in \/ \$15 out per 1M, no cache, ~72\.6× what Keel cost\n/,
    );
    const json = JSON.parse(await runStats({ json: true }, { keelHome, reference }));
    expect(json.reference).toEqual({ ...reference, costUsd: 3.15, savingsUsd: 3.1066 });
    const none = await runStats({}, { keelHome, reference: null });
    expect(none).not.toContain("Sonnet");
  });

  it("referenceCost prices prompt and completion tokens", () => {
    const stats = usageStats({ keelHome });
    expect(
      referenceCost(
        { ...stats, promptTokens: 2e6, completionTokens: 1e6 },
        { label: "x", inputPerMillion: 3, outputPerMillion: 15 },
      ),
    ).toBe(21);
  });

  it("dollar amounts", () => {
    expect(usd(0)).toBe("$0.0000");
    expect(usd(0.00042)).toBe("$0.0004");
    expect(usd(1.239)).toBe("$1.24");
    expect(usd(-0.5)).toBe("-$0.5000");
  });

  it("renders nothing but the friendly line for an empty period", () => {
    const stats = usageStats({ keelHome });
    expect(renderStats(stats, { today: true, reference: null })).toEqual([
      "No model requests recorded today.",
    ]);
  });
});
