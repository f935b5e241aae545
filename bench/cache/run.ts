/**
 * Cache benchmark (issue 3), against the simulator in one run:
 * - three scripted sessions, each normal and with the benchmark-only cache-hostile option:
 *   cache hit ratio, hit tokens / the simulator's cacheable limit (target ≥ 0.99), cost vs hostile;
 * - memory of a 500-turn session next to a 50-turn one, each in a child process, measured two
 *   ways: retained heap with a forced full GC after every turn (what the agent keeps), and peak
 *   RSS with no forced GC (what a user sees). Growth must be linear in the transcript (no
 *   per-turn copies of the whole history).
 * Prints PASS/FAIL lines; exits non-zero on any FAIL.  Run: npx tsx bench/cache/run.ts
 */
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { script, startSimulator } from "../../src/sim/index.js";
import { runCrossSession } from "./cross-session.js";
import { runSession, SESSIONS, type SessionResult } from "./sessions.js";

const here = dirname(fileURLToPath(import.meta.url));
let failed = false;
const verdict = (ok: boolean, text: string) => {
  if (!ok) failed = true;
  console.log(`${ok ? "PASS" : "FAIL"} ${text}`);
};
const pct = (x: number) => `${(x * 100).toFixed(2)}%`;
const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);

console.log("Cache benchmark (simulator, DeepSeek prefix cache: 64-token units)\n");
console.log("session            mode     reqs  hit ratio  hit/cacheable  cost USD    vs hostile");
for (const def of SESSIONS) {
  const normal = await runSession(def, false);
  const hostile = await runSession(def, true);
  for (const r of [normal, hostile]) {
    console.log(
      [
        r.name.padEnd(18),
        (r.hostile ? "hostile" : "keel").padEnd(8),
        String(r.requests).padStart(4),
        pct(ratio(r.hitTokens, r.promptTokens)).padStart(10),
        ratio(r.hitTokens, r.cacheableTokens).toFixed(4).padStart(14),
        r.costUsd.toFixed(6).padStart(10),
        r.hostile ? "" : `   ×${ratio(r.costUsd, hostile.costUsd).toFixed(3)}`,
      ].join(" "),
    );
  }
  check(normal, hostile);
}

function check(normal: SessionResult, hostile: SessionResult): void {
  const errs = [...normal.errors, ...hostile.errors];
  verdict(errs.length === 0, `${normal.name}: no errors${errs.length ? ` (${errs[0]})` : ""}`);
  const limit = ratio(normal.hitTokens, normal.cacheableTokens);
  verdict(
    limit >= 0.99,
    `${normal.name}: hit tokens / cacheable limit = ${limit.toFixed(4)} (≥ 0.99)`,
  );
  verdict(
    normal.costUsd < hostile.costUsd,
    `${normal.name}: cost ${normal.costUsd.toFixed(6)} < hostile ${hostile.costUsd.toFixed(6)} (×${ratio(normal.costUsd, hostile.costUsd).toFixed(3)})`,
  );
}

console.log("\nAcross sessions, with a skill, an agent file and an MCP server in the prefix");
const cross = await runCrossSession();
verdict(
  cross.errors.length === 0,
  `cross-session: no errors${cross.errors.length ? ` (${cross.errors[0]})` : ""}`,
);
verdict(
  cross.present.skill && cross.present.agent && cross.present.mcp,
  `cross-session: the prefix lists the skill (${cross.present.skill}), the agent file (${cross.present.agent}) and the MCP tool (${cross.present.mcp})`,
);
verdict(
  cross.systemSame && cross.toolsSame,
  `cross-session: second session's system message (${cross.systemSame ? "same" : "differs"}) and tools (${cross.toolsSame ? "same" : "differ"}) byte-identical to the first's`,
);
verdict(
  cross.secondFirst.hitTokens > 0,
  `cross-session: second session's first request served ${cross.secondFirst.hitTokens} of ${cross.secondFirst.promptTokens} prompt tokens from the cache (${pct(ratio(cross.secondFirst.hitTokens, cross.secondFirst.promptTokens))})`,
);

/**
 * Peak RSS without forced GC includes the garbage V8 lets pile up before it collects (each
 * request's body is a fresh string as long as the transcript, encoded once more to send it),
 * so it measures V8's heap sizing as much as the agent: measured about 25 on this machine.
 * The bound is looser than the retained heap's; per-turn copies of the history kept alive
 * would still be far above it (≈ 250).
 */
const PEAK_RSS_LIMIT = 64;

interface MemoryResult {
  turns: number;
  errors: number;
  transcriptBytes: number;
  maxRssKb: number;
  heapUsedBytes: number;
}

type MemoryMode = "gc" | "nogc";

async function memoryRun(turns: number, mode: MemoryMode): Promise<MemoryResult> {
  const text = "The design keeps every message's bytes once and replays them. ".repeat(120);
  const s = script();
  for (let i = 0; i < turns; i++) s.text(`Answer ${i}. ${text}`);
  const sim = await startSimulator({ script: s, keepBodies: false });
  try {
    const flags = mode === "gc" ? ["--expose-gc"] : [];
    const child = spawn(
      process.execPath,
      [...flags, "--import", "tsx", join(here, "memory-child.ts"), sim.url, String(turns), mode],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    const code = await new Promise<number | null>((res) => child.on("close", res));
    if (code !== 0) throw new Error(`memory child (${mode}, ${turns} turns) exited ${code}`);
    const parsed: unknown = JSON.parse(out.trim().split("\n").at(-1) ?? "{}");
    if (typeof parsed !== "object" || parsed === null) throw new Error("bad child output");
    const get = (k: string) => Number(Reflect.get(parsed, k));
    return {
      turns,
      errors: get("errors"),
      transcriptBytes: get("transcriptBytes"),
      maxRssKb: get("maxRssKb"),
      heapUsedBytes: get("heapUsedBytes"),
    };
  } finally {
    await sim.close();
  }
}

const mib = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;
// Extra memory per extra transcript byte, 50 → 500 turns. Keeping a copy of the history per
// turn would cost about turns/2 bytes per transcript byte (≈ 250 at 500 turns); linear storage
// costs a few.
const perByte = (small: MemoryResult, large: MemoryResult, pick: (m: MemoryResult) => number) =>
  ratio(pick(large) - pick(small), large.transcriptBytes - small.transcriptBytes);

console.log("\nMemory, 50 vs 500 turns (one child process per run)");
console.log("  A. retained heap: forced full GC after every turn, heap in use at the end");
const gcSmall = await memoryRun(50, "gc");
const gcLarge = await memoryRun(500, "gc");
for (const m of [gcSmall, gcLarge]) {
  console.log(
    `     ${String(m.turns).padStart(3)} turns: transcript ${(m.transcriptBytes / 1024).toFixed(0)} KiB, retained heap ${mib(m.heapUsedBytes)}`,
  );
}
console.log("  B. peak RSS: no forced GC (V8 collects as in real use), process peak resident set");
const rawSmall = await memoryRun(50, "nogc");
const rawLarge = await memoryRun(500, "nogc");
for (const m of [rawSmall, rawLarge]) {
  console.log(
    `     ${String(m.turns).padStart(3)} turns: transcript ${(m.transcriptBytes / 1024).toFixed(0)} KiB, peak RSS ${mib(m.maxRssKb * 1024)}`,
  );
}
const errors = gcSmall.errors + gcLarge.errors + rawSmall.errors + rawLarge.errors;
verdict(errors === 0, "memory runs: no errors");
const heapPerByte = perByte(gcSmall, gcLarge, (m) => m.heapUsedBytes);
verdict(
  heapPerByte <= 8,
  `A. retained heap growth 50→500 turns (forced GC): ${heapPerByte.toFixed(2)} bytes per transcript byte (≤ 8: linear, no per-turn history copies)`,
);
const rssPerByte = perByte(rawSmall, rawLarge, (m) => m.maxRssKb * 1024);
verdict(
  rssPerByte <= PEAK_RSS_LIMIT,
  `B. peak RSS growth 50→500 turns (no forced GC): ${rssPerByte.toFixed(2)} bytes per transcript byte (≤ ${PEAK_RSS_LIMIT}; garbage included)`,
);

process.exitCode = failed ? 1 : 0;
