/**
 * `npm run bench`: every benchmark in bench/, one after another, each in its own process (each
 * measures against a baseline it runs itself, so none depends on another's figures).
 *
 *   npm run bench                      (after `npm run build`, which the script runs first)
 *   BENCH_SKIP=peers,reasoning npm run bench
 *
 * bench/peers installs Reasonix from npm (scripts/install-peer.mjs); bench/reasoning runs
 * against the simulator unless DEEPSEEK_API_KEY is set. Exits non-zero when a benchmark did,
 * after running the rest.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";

const BENCHES = ["hooks", "sandbox", "mcp", "cache", "tui", "pieces", "peers", "reasoning"];
const skip = new Set((process.env.BENCH_SKIP ?? "").split(",").filter(Boolean));
const tsx = join(import.meta.dirname, "../node_modules/tsx/dist/cli.mjs");

const failed: string[] = [];
for (const name of BENCHES) {
  if (skip.has(name)) continue;
  console.log(`\n## bench/${name}\n`);
  const r = spawnSync(process.execPath, [tsx, join(import.meta.dirname, name, "run.ts")], {
    stdio: "inherit",
  });
  if (r.status !== 0) failed.push(`${name} (exit ${r.status ?? r.signal})`);
}
if (failed.length > 0) {
  console.error(`\nbench: failed: ${failed.join(", ")}`);
  process.exitCode = 1;
}
