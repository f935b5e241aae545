/**
 * Sessions keep V8's young generation at its initial size (src/cli/young-generation.ts), set at
 * run time instead of a `node --max-semi-space-size` flag that costs every command its start-up.
 */
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

/** The largest new-space size (MB) a child process reaches while allocating short-lived objects. */
function peakNewSpaceMb(limit: boolean): number {
  const script = `
    const { keepYoungGenerationSmall } = await import(${JSON.stringify(join(ROOT, "src/cli/young-generation.ts"))});
    const v8 = await import("node:v8");
    if (${limit}) keepYoungGenerationSmall();
    let keep = [], peak = 0;
    for (let i = 0; i < 3e6; i++) {
      keep.push({ i, s: "x" + i });
      if (keep.length > 3000) keep = [];
      if (i % 50000 === 0) {
        const ns = v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
        peak = Math.max(peak, ns.space_size);
      }
    }
    console.log(peak / 2 ** 20);`;
  const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: ROOT,
    encoding: "utf8",
  });
  expect(r.stderr).toBe("");
  return Number(r.stdout.trim());
}

describe("keepYoungGenerationSmall", () => {
  it("keeps new space at its initial size where V8 would otherwise grow it", () => {
    const grown = peakNewSpaceMb(false);
    const kept = peakNewSpaceMb(true);
    expect(grown).toBeGreaterThan(8);
    expect(kept).toBeLessThanOrEqual(4);
  }, 60_000);
});
