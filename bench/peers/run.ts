/**
 * Keel against Reasonix (the Go agent, from npm), Claude Code and Codex on the same scripted
 * sessions, ratios measured in one run on this machine:
 *
 *   npm run build && npx tsx bench/peers/run.ts        (BENCH_N=5 repetitions by default)
 *
 * 1. start-up: `--version`, `--help`, `hooks list` (Reasonix: `hook list --json`) without and
 *    with hook files, Keel's `--help` / `hooks list` against `node -e 0`, and the same two with
 *    telemetry off against KEEL_ENABLE_TELEMETRY=1 (issue 28: off costs nothing);
 * 2. a 20-tool-call session with 0, 2 and 8 command hooks on every call (PreToolUse), Keel's
 *    from its own settings (run alongside each other); and with 32 hooks from the same
 *    `.reasonix/settings.json` for both (one after another in both), which gives the cost of
 *    one hook run;
 * 3. a 200-turn session (199 tool calls and an answer in one headless run);
 * 4. the 20-tool-call session with 0 and 8 hooks against Claude Code (file reads) and Codex
 *    (shell commands), each against its own API's simulator (headless-peers.ts).
 * BENCH_ONLY keys: startup, 0, 2, 8, seq, 200, reasonix (all of 2 and 3), claude0, claude8,
 * claude, codex0, codex8, codex.
 *
 * Session rows run in interleaved rounds (each round runs every row once; within a row the
 * order alternates), and the load average is printed: the machine is shared.
 * Start-up rows also print peak RSS against the target: `node -e 0`'s plus 3 MB.
 * Each run is one process measured by bench/peers/measure.py (wait4: wall, CPU user+sys of it
 * and its children, peak RSS); medians are printed with Keel's ratio to the peer. The agents
 * read the same files and run the same hook command (`sh -c`, one line appended to a counter
 * file, checked afterwards, so a hook that did not fire cannot make a run look fast). Every
 * agent runs in its permission-bypass mode (Keel `--mode bypassPermissions`, Reasonix
 * `--permission-mode danger-full-access`; Claude Code and Codex: compat/headless.ts).
 * Reasonix runs headless (`-p --output-format json`) with its provider in a temporary REASONIX
 * home and the key in that home's .env (where it reads provider keys); its hooks are project
 * hooks (no trust in -p), Keel's are user-level (no trust needed). Keel and Reasonix share the
 * DeepSeek simulator, which tokenizes in this process (wall time only, CPU is each agent's
 * own); Claude Code's and Codex's simulators do not tokenize. Nothing is asserted.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { PeerCommand } from "../../compat/run-claude.js";
import { script } from "../../src/sim/builder.js";
import { startSimulator } from "../../src/sim/server.js";
import { loadTokenizer } from "../../src/sim/tokenizer.js";
import { type HeadlessSpec, headlessSession, type Versus } from "./headless-peers.js";
import { measure, median, type Sample } from "./measure.js";

const N = Number(process.env.BENCH_N ?? 5);
const ROOT = resolve(import.meta.dirname, "../..");
/** Experiments: another build of Keel (BENCH_KEEL=/path/to/keel/bin/keel.js). */
const KEEL = process.env.BENCH_KEEL ?? join(ROOT, "bin/keel.js");
/** Before/after: another build's start-up commands measured in the same rounds as this one's
 *  (BENCH_KEEL_BASE=/path/to/old/bin/keel.js), printed as "keel … vs the base build". */
const KEEL_BASE = process.env.BENCH_KEEL_BASE;
/** Experiments: node flags for Keel's sessions (BENCH_NODE_FLAGS), Keel alone (BENCH_AGENTS=keel). */
const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? "").split(" ").filter(Boolean);
const KEEL_ONLY = process.env.BENCH_AGENTS === "keel";
/** `keel ARGS` as a user runs it: bin/keel.js through its `#!/usr/bin/env -S node …` line. */
const keel = (...args: string[]) =>
  NODE_FLAGS.length > 0 ? [process.execPath, ...NODE_FLAGS, KEEL, ...args] : [KEEL, ...args];

/** Installs a peer into the peer cache (scripts/install-peer.mjs; never a dependency). */
function installPeer(name: string, version?: string): PeerCommand & { version: string } {
  const args = [join(ROOT, "scripts/install-peer.mjs"), name, "--json"];
  if (version) args.push("--version", version);
  const info = JSON.parse(
    execFileSync(process.execPath, args, { encoding: "utf8" }),
  ) as PeerCommand & { version: string };
  console.log(`${name} ${info.version}: ${[info.command, ...info.args].join(" ")}`);
  return info;
}

/** The Claude Code release measured: the current one (install-peer.mjs's default is older). */
const CLAUDE_VERSION = process.env.BENCH_CLAUDE_VERSION ?? "2.1.332";

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
  /** Whose run this world is for: Keel's own-settings rows leave `.reasonix/` out (Keel reads
   *  it as project hooks, and untrusted project hooks stop `keel run`). */
  agent: "keel" | "reasonix" | "both" = "both",
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
  if (hooks > 0 && (agent !== "keel" || hookFile === "reasonix")) {
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
      agent,
    );
    const prompt = "Read the notes files and summarize them.";
    const cmd =
      agent === "keel"
        ? keel(
            "run",
            prompt,
            "--mode",
            "bypassPermissions",
            "--max-turns",
            String(calls + 5),
            "--output-format",
            "json",
          )
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
  // Issue 28: the same Keel commands with telemetry on. The OpenTelemetry SDK is imported only
  // when a session starts with telemetry on (src/telemetry/index.ts), so with it off start-up
  // must be what it was; the endpoint is a closed loopback port (nothing leaves the machine).
  const telemetryOn = {
    ...w.env,
    KEEL_ENABLE_TELEMETRY: "1",
    OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9",
  };
  const telemetry: Array<[string, string[], Sample[]]> = [
    ["--help", keel("--help"), []],
    ["hooks list", keel("hooks", "list"), []],
  ];
  const base: Sample[][] = pairs.map(() => []);
  for (let i = 0; i < N * 2; i++) {
    node.push(await measure([process.execPath, "-e", "0"], w.env, w.project));
    for (const [k, [, keelCmd, peerCmd, at]] of pairs.entries()) {
      const row = rows[k];
      if (!row) continue;
      row.keel.push(await measure(keelCmd, at.env, at.project));
      row.peer.push(await measure(peerCmd, at.env, at.project));
      if (KEEL_BASE)
        base[k]?.push(await measure([KEEL_BASE, ...keelCmd.slice(1)], at.env, at.project));
    }
    for (const [, cmd, samples] of telemetry) {
      samples.push(await measure(cmd, telemetryOn, w.project));
    }
  }
  for (const r of rows) {
    const bad = [...r.keel, ...r.peer].find((s) => s.code !== 0);
    if (bad) throw new Error(`start-up ${r.name}: exit ${bad.code}`);
  }
  for (const [name, , samples] of telemetry) {
    const bad = samples.find((s) => s.code !== 0);
    if (bad) throw new Error(`start-up ${name} with telemetry on: exit ${bad.code}`);
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
    ...(KEEL_BASE
      ? rows.map((r, k) => ({
          name: `keel ${r.name} (this build)`,
          keel: r.keel,
          peer: base[k] ?? [],
          peerLabel: "the base build",
        }))
      : []),
    ...telemetry.map(([name, , samples]) => ({
      name: `keel ${name}, telemetry off`,
      keel: rows.find((r) => r.name === name)?.keel ?? [],
      peer: samples,
      peerLabel: "the same with KEEL_ENABLE_TELEMETRY=1",
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

/** A session row: its name, BENCH_ONLY keys, repetitions and how to run each side once. */
interface SessionRow extends Row {
  keys: string[];
  reps: number;
  runKeel: (i: number) => Promise<Sample>;
  runPeer: (i: number) => Promise<Sample>;
  /** For the summary of Keel's ratios: which peer and how many hooks per call. */
  summary?: { peer: string; hooks: number };
}

const loads = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");

async function main(): Promise<void> {
  console.log(`load average (1, 5, 15 min) at the start: ${loads()}`);
  const reasonix = installPeer("reasonix");
  const claude = installPeer("claude", CLAUDE_VERSION);
  const codex = installPeer("codex");
  // The DeepSeek simulator tokenizes in this process; load its tokenizer now, not in the
  // first measured session (several seconds of wall time on a loaded machine).
  await loadTokenizer();
  const root = mkdtempSync(join(tmpdir(), "keel-bench-peers-"));
  const only = process.env.BENCH_ONLY?.split(",");
  const rows: Row[] = [];
  const highest = { load: loadavg()[0] ?? 0 };
  try {
    if (!only || only.includes("startup")) rows.push(...(await startup(root, reasonix.command)));
    const rx = reasonix.command;
    // [name, BENCH_ONLY key, tool calls, hooks per call, repetitions, Keel's hook file]
    const rxSessions: Array<[string, string, number, number, number, HookFile]> = [
      [NO_HOOKS, "0", 20, 0, N, "keel"],
      ["20 tool calls, 2 hooks per call", "2", 20, 2, N, "keel"],
      ["20 tool calls, 8 hooks per call", "8", 20, 8, N, "keel"],
      [IN_ORDER, "seq", 20, IN_ORDER_HOOKS, N, "reasonix"],
      ["200 turns", "200", 199, 0, Math.max(1, Math.ceil(N / 2)), "keel"],
    ];
    const sessions: SessionRow[] = rxSessions.map(([name, key, calls, hooks, reps, file]) => ({
      name,
      keel: [],
      peer: [],
      peerLabel: `reasonix ${reasonix.version}`,
      keys: [key, "reasonix"],
      reps,
      runKeel: (i) => session(root, "keel", rx, calls, hooks, i, file),
      runPeer: (i) => session(root, "reasonix", rx, calls, hooks, i, file),
      ...(calls === 20 && (hooks === 0 || hooks === 8) && file === "keel"
        ? { summary: { peer: `Reasonix ${reasonix.version}`, hooks } }
        : {}),
    }));
    const headless: Array<[Versus, PeerCommand & { version: string }, string, string]> = [
      ["claude", claude, "Claude Code", "20 file reads"],
      ["codex", codex, "Codex", "20 shell commands"],
    ];
    for (const [versus, peer, title, what] of headless) {
      for (const hooks of [0, 8]) {
        const spec: HeadlessSpec = { versus, calls: 20, hooks };
        sessions.push({
          name: `${what}, ${hooks === 0 ? "no hooks" : `${hooks} hooks per call (${hooks / 2} Pre + ${hooks / 2} PostToolUse)`}`,
          keel: [],
          peer: [],
          peerLabel: `${title} ${peer.version}`,
          keys: [`${versus}${hooks}`, versus],
          reps: N,
          runKeel: (i) => headlessSession(root, "keel", spec, peer, keel(), i),
          runPeer: (i) => headlessSession(root, versus, spec, peer, keel(), i),
          summary: { peer: `${title} ${peer.version}`, hooks },
        });
      }
    }
    const chosen = sessions.filter((r) => !only || r.keys.some((k) => only.includes(k)));
    const rounds = Math.max(0, ...chosen.map((r) => r.reps));
    // Interleaved rounds: each round runs every row once, so a change in the machine's load
    // falls on all rows alike; within a row the order alternates so neither side always runs
    // on a warmer machine.
    for (let i = 0; i < rounds; i++) {
      for (const row of chosen) {
        if (i >= row.reps) continue;
        const keelFirst = i % 2 === 0;
        if (keelFirst) row.keel.push(await row.runKeel(i));
        if (!KEEL_ONLY) row.peer.push(await row.runPeer(i));
        if (!keelFirst) row.keel.push(await row.runKeel(i));
      }
      highest.load = Math.max(highest.load, loadavg()[0] ?? 0);
      console.log(`round ${i + 1} of ${rounds} done (load average ${loads()})`);
    }
    rows.push(...chosen);
    console.log(
      `load average (1, 5, 15 min) at the end: ${loads()}; highest 1-min average seen: ${highest.load.toFixed(2)} on ${cpus().length} cores`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  print(rows);
  printSessionRatios(rows);
  printPerHook(rows);
  printStartupRss(rows);
}

/** Keel's session ratios to each peer side by side (wall / CPU), from the rows above. */
function printSessionRatios(rows: Row[]): void {
  const summed = rows.filter(
    (r): r is SessionRow & Required<Pick<SessionRow, "summary">> =>
      "summary" in r && r.summary !== undefined && r.peer.length > 0,
  );
  if (summed.length === 0) return;
  const peers = [...new Set(summed.map((r) => r.summary.peer))];
  const ratio = (r: Row, f: (s: Sample) => number) =>
    (median(r.keel.map(f)) / median(r.peer.map(f))).toFixed(2);
  console.log(
    `\nKeel's ratios on the 20-tool-call session, wall / CPU (below 1: Keel is faster):\n\n| hooks per call | ${peers.map((p) => `vs ${p}`).join(" | ")} |\n|---|${peers.map(() => "---|").join("")}`,
  );
  for (const hooks of [0, 8]) {
    const cells = peers.map((p) => {
      const r = summed.find((x) => x.summary.peer === p && x.summary.hooks === hooks);
      return r ? `${ratio(r, (s) => s.wallMs)} / ${ratio(r, (s) => s.cpuMs)}` : "not run";
    });
    console.log(`| ${hooks} | ${cells.join(" | ")} |`);
  }
  console.log(
    "(vs Reasonix: 20 read_file calls, hooks on PreToolUse; vs Claude Code: 20 reads, Read; vs Codex: 20 `cat` shell commands, exec_command; vs both: hooks half PreToolUse, half PostToolUse)",
  );
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
  // Each round on its own (the rows' i-th samples ran in the same round): how steady the ratio is.
  const rounds = Math.min(seq.keel.length, base.keel.length, seq.peer.length, base.peer.length);
  for (let i = 0; i < rounds; i++) {
    const one = (a?: Sample, b?: Sample) => ((a?.cpuMs ?? 0) - (b?.cpuMs ?? 0)) / runs;
    const kc = one(seq.keel[i], base.keel[i]);
    const pc = one(seq.peer[i], base.peer[i]);
    console.log(
      `  round ${i + 1}: Keel ${kc.toFixed(2)} ms CPU, Reasonix ${pc.toFixed(2)} ms — ratio ${(kc / pc).toFixed(2)}`,
    );
  }
}

await main();
