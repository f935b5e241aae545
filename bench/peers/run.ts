/**
 * Keel against Reasonix (the Go agent, from npm) on the same scripted sessions and the same
 * simulator, ratios measured in one run on this machine:
 *
 *   npm run build && npx tsx bench/peers/run.ts        (BENCH_N=5 repetitions by default)
 *
 * 1. start-up: `--version`, `--help`, `hooks list` (Reasonix: `hook list --json`) without and
 *    with hook files, and Keel's `--help` / `hooks list` against `node -e 0`;
 * 2. a 20-tool-call session with 0, 2 and 8 command hooks on every call (PreToolUse), Keel's
 *    from its own settings (run alongside each other); and with 32 hooks from the same
 *    `.reasonix/settings.json` for both (one after another in both), which gives the cost of
 *    one hook run (BENCH_ONLY keys: startup, 0, 2, 8, seq, 200);
 * 3. a 200-turn session (199 tool calls and an answer in one headless run).
 *
 * Start-up rows also print peak RSS against the target: `node -e 0`'s plus 3 MB.
 * Each run is one process measured by bench/peers/measure.py (getrusage: wall, CPU user+sys,
 * peak RSS); medians are printed with the Keel/Reasonix ratio. Both agents read the same file
 * with `read_file` and run the same hook command (`sh -c`, one line appended to a counter file,
 * checked afterwards, so a hook that did not fire cannot make a run look fast). Reasonix runs
 * headless (`-p --output-format json`) with its provider in a temporary REASONIX home and the
 * key in that home's .env (where it reads provider keys); its hooks are project hooks (no trust
 * in -p), Keel's are user-level (no trust needed). Nothing is asserted: the machine is shared.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { script } from "../../src/sim/builder.js";
import { startSimulator } from "../../src/sim/server.js";
import { measure, median, type Sample } from "./measure.js";

const N = Number(process.env.BENCH_N ?? 5);
const ROOT = resolve(import.meta.dirname, "../..");
/** Experiments: another build of Keel (BENCH_KEEL=/path/to/keel/bin/keel.js). */
const KEEL = process.env.BENCH_KEEL ?? join(ROOT, "bin/keel.js");
/** Experiments: node flags for Keel's sessions (BENCH_NODE_FLAGS), Keel alone (BENCH_AGENTS=keel). */
const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? "").split(" ").filter(Boolean);
const KEEL_ONLY = process.env.BENCH_AGENTS === "keel";
/** `keel ARGS` as a user runs it: bin/keel.js through its `#!/usr/bin/env -S node …` line. */
const keel = (...args: string[]) =>
  NODE_FLAGS.length > 0 ? [process.execPath, ...NODE_FLAGS, KEEL, ...args] : [KEEL, ...args];

async function installReasonix(): Promise<string> {
  const r = await new Promise<string>((done, fail) => {
    const c = spawn(
      process.execPath,
      [join(ROOT, "scripts/install-peer.mjs"), "reasonix", "--json"],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    let out = "";
    c.stdout.on("data", (b: Buffer) => {
      out += b.toString();
    });
    c.on("close", (code) => (code === 0 ? done(out) : fail(new Error("install-peer failed"))));
  });
  const info = JSON.parse(r) as { command: string; version: string };
  console.log(`reasonix ${info.version}: ${info.command}`);
  return info.command;
}

/** A fresh world: a project with the file the sessions read, a HOME, Keel's and Reasonix's homes. */
/** Where Keel's hooks come from: its own user settings (run alongside each other, no trust
 *  needed) or the same `.reasonix/settings.json` Reasonix reads (trusted first; run one after
 *  another, as Reasonix runs them). */
type HookFile = "keel" | "reasonix";

function world(
  root: string,
  name: string,
  simUrl: string,
  hooks: number,
  files = 0,
  hookFile: HookFile = "keel",
) {
  const dir = join(root, name);
  const project = join(dir, "project");
  const home = join(dir, "home");
  const keelHome = join(home, ".keel");
  const rxHome = join(home, ".reasonix");
  for (const d of [project, keelHome, rxHome]) mkdirSync(d, { recursive: true });
  const line = "The module parses its input once at the boundary and hands typed values on. ";
  // One file per call: both agents stop a model that repeats the same call.
  for (let f = 0; f < files; f++)
    writeFileSync(join(project, `notes-${f}.txt`), `${f}: ${line.repeat(24)}\n`);
  const counter = join(dir, "hook-count");
  writeFileSync(counter, "");
  // Distinct commands: Keel (like Claude Code) runs identical handlers once.
  const hookCommand = (k: number) => `echo ${k} >> '${counter}'`;
  writeFileSync(
    join(keelHome, "config.json"),
    JSON.stringify({ apiKey: "sk-bench-0123456789", baseUrl: simUrl }),
    { mode: 0o600 },
  );
  if (hooks > 0 && hookFile === "keel") {
    const handlers = Array.from({ length: hooks }, (_, k) => ({
      type: "command",
      command: hookCommand(k),
    }));
    writeFileSync(
      join(keelHome, "settings.json"),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: "read_file", hooks: handlers }] } }),
    );
  }
  if (hooks > 0) {
    mkdirSync(join(project, ".reasonix"));
    writeFileSync(
      join(project, ".reasonix/settings.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: Array.from({ length: hooks }, (_, k) => ({
            match: "read_file",
            command: hookCommand(k),
            timeout: 5000,
          })),
        },
      }),
    );
  }
  writeFileSync(
    join(rxHome, "config.toml"),
    [
      'default_model = "sim"',
      "[[providers]]",
      'name = "sim"',
      'kind = "openai"',
      `base_url = "${simUrl}"`,
      'model = "deepseek-chat"',
      'api_key_env = "DEEPSEEK_API_KEY"',
      "[permissions]",
      'mode = "allow"',
      "",
    ].join("\n"),
  );
  writeFileSync(join(rxHome, ".env"), "DEEPSEEK_API_KEY=sk-bench-0123456789\n", { mode: 0o600 });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    KEEL_HOME: keelHome,
    REASONIX_HOME: rxHome,
    TERM: "dumb",
    NO_COLOR: "1",
  };
  if (hooks > 0 && hookFile === "reasonix") {
    const t = spawnSync(KEEL, ["hooks", "trust"], { cwd: project, env, encoding: "utf8" });
    if (t.status !== 0) throw new Error(`keel hooks trust: ${t.stderr}`);
  }
  const hookRuns = () => readFileSync(counter, "utf8").split("\n").length - 1;
  return { dir, project, env, hookRuns };
}

interface Row {
  name: string;
  keel: Sample[];
  peer: Sample[];
  peerLabel: string;
}

/** One scripted session (`calls` read_file calls, then an answer) through one agent. */
async function session(
  root: string,
  agent: "keel" | "reasonix",
  reasonix: string,
  calls: number,
  hooks: number,
  i: number,
  hookFile: HookFile = "keel",
): Promise<Sample> {
  const s = script();
  for (let c = 0; c < calls; c++) s.tool("read_file", { path: `notes-${c}.txt` });
  s.text("Read the notes; the module parses its input at the boundary.");
  const sim = await startSimulator({ script: s, keepBodies: false });
  try {
    const w = world(
      root,
      `${agent}-${calls}-${hooks}-${hookFile}-${i}`,
      sim.url,
      hooks,
      calls,
      hookFile,
    );
    const prompt = "Read the notes files and summarize them.";
    const cmd =
      agent === "keel"
        ? keel("run", prompt, "--yes", "--max-turns", String(calls + 5), "--output-format", "json")
        : [
            reasonix,
            "-p",
            "--output-format",
            "json",
            "--max-steps",
            String(calls + 5),
            "--permission-mode",
            "danger-full-access",
            prompt,
          ];
    const log = join(w.dir, "output.txt");
    const r = await measure(cmd, { ...w.env, MEASURE_STDOUT: log }, w.project);
    const served = sim.requests.filter((q) => q.status === 200).length;
    if (r.code !== 0 || served < calls + 1) {
      throw new Error(
        `${agent} ${calls} calls/${hooks} hooks: exit ${r.code}, ${served} requests answered:\n${readFileSync(log, "utf8").slice(-2000)}`,
      );
    }
    if (w.hookRuns() !== calls * hooks) {
      throw new Error(`${agent}: ${w.hookRuns()} hook runs, expected ${calls * hooks}`);
    }
    return r;
  } finally {
    await sim.close();
  }
}

async function startup(root: string, reasonix: string): Promise<Row[]> {
  const w = world(root, "startup", "http://127.0.0.1:9", 0);
  // The same listing with hook files to read: 8 hooks in Keel's user settings and 8 in the
  // project's .reasonix/settings.json (Keel lists both; Reasonix its own).
  const wh = world(root, "startup-hooks", "http://127.0.0.1:9", 8);
  type Pair = [string, string[], string[], ReturnType<typeof world>];
  const pairs: Pair[] = [
    ["--version", keel("--version"), [reasonix, "--version"], w],
    ["--help", keel("--help"), [reasonix, "--help"], w],
    ["hooks list", keel("hooks", "list"), [reasonix, "hook", "list", "--json"], w],
    ["hooks list, 8+8 hooks", keel("hooks", "list"), [reasonix, "hook", "list", "--json"], wh],
  ];
  const rows: Row[] = pairs.map(([name]) => ({ name, keel: [], peer: [], peerLabel: "reasonix" }));
  const node: Sample[] = [];
  for (let i = 0; i < N * 2; i++) {
    node.push(await measure([process.execPath, "-e", "0"], w.env, w.project));
    for (const [k, [, keelCmd, peerCmd, at]] of pairs.entries()) {
      const row = rows[k];
      if (!row) continue;
      row.keel.push(await measure(keelCmd, at.env, at.project));
      row.peer.push(await measure(peerCmd, at.env, at.project));
    }
  }
  for (const r of rows) {
    const bad = [...r.keel, ...r.peer].find((s) => s.code !== 0);
    if (bad) throw new Error(`start-up ${r.name}: exit ${bad.code}`);
  }
  return [
    ...rows,
    ...rows
      .filter((r) => r.name !== "--version")
      .map((r) => ({
        name: `keel ${r.name} vs node -e 0`,
        keel: r.keel,
        peer: node,
        peerLabel: "node -e 0",
      })),
  ];
}

function print(rows: Row[]): void {
  const f = (x: number) => x.toFixed(x < 10 ? 1 : 0);
  console.log(
    "\n| run | Keel wall / CPU / RSS | baseline wall / CPU / RSS | wall ratio | CPU ratio | RSS ratio |",
  );
  console.log("|---|---|---|---|---|---|");
  for (const r of rows) {
    const k = {
      w: median(r.keel.map((s) => s.wallMs)),
      c: median(r.keel.map((s) => s.cpuMs)),
      m: median(r.keel.map((s) => s.rssKb)) / 1024,
    };
    const p = {
      w: median(r.peer.map((s) => s.wallMs)),
      c: median(r.peer.map((s) => s.cpuMs)),
      m: median(r.peer.map((s) => s.rssKb)) / 1024,
    };
    console.log(
      `| ${r.name} (vs ${r.peerLabel}) | ${f(k.w)} ms / ${f(k.c)} ms / ${f(k.m)} MB | ${f(p.w)} ms / ${f(p.c)} ms / ${f(p.m)} MB | ${(k.w / p.w).toFixed(2)} | ${(k.c / p.c).toFixed(2)} | ${(k.m / p.m).toFixed(2)} |`,
    );
  }
}

async function main(): Promise<void> {
  const reasonix = await installReasonix();
  const root = mkdtempSync(join(tmpdir(), "keel-bench-peers-"));
  const only = process.env.BENCH_ONLY?.split(",");
  const rows: Row[] = [];
  try {
    if (!only || only.includes("startup")) rows.push(...(await startup(root, reasonix)));
    // [name, BENCH_ONLY key, tool calls, hooks per call, repetitions, Keel's hook file]
    const sessions: Array<[string, string, number, number, number, HookFile]> = [
      [NO_HOOKS, "0", 20, 0, N, "keel"],
      ["20 tool calls, 2 hooks per call", "2", 20, 2, N, "keel"],
      ["20 tool calls, 8 hooks per call", "8", 20, 8, N, "keel"],
      [IN_ORDER, "seq", 20, IN_ORDER_HOOKS, N, "reasonix"],
      ["200 turns", "200", 199, 0, Math.max(1, Math.ceil(N / 2)), "keel"],
    ];
    for (const [name, key, calls, hooks, reps, file] of sessions) {
      if (only && !only.includes(key)) continue;
      const row: Row = { name, keel: [], peer: [], peerLabel: "reasonix" };
      const run = (agent: "keel" | "reasonix", i: number) =>
        session(root, agent, reasonix, calls, hooks, i, file);
      for (let i = 0; i < reps; i++) {
        // Alternate the order so neither agent always runs on a warmer machine.
        const first = i % 2 === 0;
        if (first) row.keel.push(await run("keel", i));
        if (!KEEL_ONLY) row.peer.push(await run("reasonix", i));
        if (!first) row.keel.push(await run("keel", i));
      }
      rows.push(row);
      console.log(`${name}: done`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  print(rows);
  printPerHook(rows);
  printStartupRss(rows);
}

/** Start-up memory's target (issue 29): a start-up command's peak RSS is at most `node -e 0`'s
 *  plus 3 MB (Node's own mapped binary is most of either; Keel can only move the rest). */
const RSS_ALLOWANCE_MB = 3;

function printStartupRss(rows: Row[]): void {
  const startup = rows.filter((r) => r.peerLabel === "node -e 0");
  if (startup.length === 0) return;
  const mb = (xs: Sample[]) => median(xs.map((s) => s.rssKb)) / 1024;
  console.log(`
Start-up peak RSS, target ≤ node -e 0 + ${RSS_ALLOWANCE_MB} MB:`);
  for (const r of startup) {
    const keel = mb(r.keel);
    const node = mb(r.peer);
    const over = keel - node;
    const verdict = over <= RSS_ALLOWANCE_MB ? "met" : "missed";
    console.log(
      `  ${r.name.replace(/ vs node -e 0$/, "")}: ${keel.toFixed(1)} MB = node -e 0 (${node.toFixed(1)} MB) ${over >= 0 ? "+" : "-"} ${Math.abs(over).toFixed(1)} MB — ${verdict}`,
    );
  }
}

const NO_HOOKS = "20 tool calls, no hooks";
/** Enough runs (20 × 32) that a hook's cost stands out of Reasonix's run-to-run spread. */
const IN_ORDER_HOOKS = 32;
const IN_ORDER = `20 tool calls, ${IN_ORDER_HOOKS} hooks per call from the same .reasonix file (one after another)`;

/** The cost of one hook run when hooks run one after another: the in-order row minus the
 *  no-hook row, over its 160 runs, for each agent (medians of the same run). */
function printPerHook(rows: Row[]): void {
  const base = rows.find((r) => r.name === NO_HOOKS);
  const seq = rows.find((r) => r.name === IN_ORDER);
  if (!base || !seq || seq.peer.length === 0) return;
  const runs = 20 * IN_ORDER_HOOKS;
  const per = (with_: Sample[], without: Sample[], f: (s: Sample) => number) =>
    (median(with_.map(f)) - median(without.map(f))) / runs;
  const wall = (s: Sample) => s.wallMs;
  const cpu = (s: Sample) => s.cpuMs;
  const k = { w: per(seq.keel, base.keel, wall), c: per(seq.keel, base.keel, cpu) };
  const p = { w: per(seq.peer, base.peer, wall), c: per(seq.peer, base.peer, cpu) };
  console.log(
    `\nOne hook run, one after another (${runs} runs): Keel ${k.w.toFixed(2)} ms wall / ${k.c.toFixed(2)} ms CPU, Reasonix ${p.w.toFixed(2)} ms / ${p.c.toFixed(2)} ms — ratios ${(k.w / p.w).toFixed(2)} / ${(k.c / p.c).toFixed(2)}`,
  );
}

await main();
