/**
 * TUI latency benchmark, ratios measured in one run on this machine:
 *
 *   npx tsx bench/tui/run.ts            (BENCH_N=5 iterations by default)
 *
 * 1. start-up: from spawning `keel` (in a pseudo-terminal, 80×24) to the first rendered prompt,
 *    against spawning `node -e 0` the same way;
 * 2. end of turn: from the simulator sending the last streamed token to the prompt being
 *    re-enabled on screen, against the same `node -e 0` time.
 *
 * The binary (bin/keel.js → dist/bundle/keel.mjs, built here when missing) runs against the
 * simulator, with a temporary KEEL_HOME, HOME and project. Medians are printed; nothing is asserted (the machine is shared).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { reply, script } from "../../src/sim/builder.js";
import { startSimulator } from "../../src/sim/server.js";

const N = Number(process.env.BENCH_N ?? 5);
const ROOT = resolve(import.meta.dirname, "../..");
/** Experiments: another build of Keel (BENCH_KEEL=/path/to/keel/bin/keel.js). */
const BIN = process.env.BENCH_KEEL ?? join(ROOT, "bin/keel.js");
const PROMPT_TEXT = "ask Keel, or /help";
const TIMEOUT_MS = 30_000;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

/** Runs `command` in a pseudo-terminal (util-linux `script`), output captured with arrival times. */
class Pty {
  readonly child: ChildProcess;
  output = "";
  private waiters: Array<() => void> = [];
  readonly exited: Promise<void>;

  constructor(command: string, env: NodeJS.ProcessEnv, cwd: string) {
    this.child = spawn(
      "script",
      ["-q", "-E", "never", "-c", `stty cols 80 rows 24; exec ${command}`, "/dev/null"],
      {
        cwd,
        env,
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    this.child.stdout?.on("data", (chunk: Buffer) => {
      this.output += chunk.toString("utf8");
      for (const w of this.waiters.splice(0)) w();
    });
    this.exited = new Promise((r) => this.child.on("exit", () => r()));
  }

  /** Resolves with the time the output after `from` first contains `text`. */
  waitFor(text: string, from = 0): Promise<number> {
    return new Promise((resolvePromise, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out waiting for "${text}":\n${this.output.slice(-2000)}`)),
        TIMEOUT_MS,
      );
      const check = () => {
        if (this.output.indexOf(text, from) >= 0) {
          clearTimeout(timer);
          resolvePromise(performance.now());
        } else this.waiters.push(check);
      };
      check();
    });
  }

  write(text: string): void {
    this.child.stdin?.write(text);
  }
}

function ensureBuilt(): void {
  if (existsSync(join(ROOT, "dist/bundle/keel.mjs"))) return;
  console.log("building dist/ (npm run build) …");
  spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
}

async function main(): Promise<void> {
  ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), "keel-bench-tui-"));
  const keelHome = join(dir, "keel-home");
  const project = join(dir, "project");
  mkdirSync(keelHome);
  mkdirSync(project);
  let lastTokenAt = 0;
  const answer = "Here is a streamed answer of a few lines.\n".repeat(12);
  const sim = await startSimulator({
    script: script(reply().text(answer).chunkChars(8).repeat(1000)),
    onRequest: () => {
      // Called once the response (the last streamed token and [DONE]) has been written.
      lastTokenAt = performance.now();
    },
  });
  writeFileSync(
    join(keelHome, "config.json"),
    JSON.stringify({ apiKey: "sk-bench", baseUrl: sim.url }),
    {
      mode: 0o600,
    },
  );
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: dir,
    KEEL_HOME: keelHome,
    TERM: "xterm-256color",
    LANG: "C.UTF-8",
  };
  const node = JSON.stringify(process.execPath);

  const baseline: number[] = [];
  const startup: number[] = [];
  const endOfTurn: number[] = [];
  try {
    for (let i = 0; i < N; i++) {
      // Interleaved, so both see the same machine load.
      const t0 = performance.now();
      const plain = new Pty(`${node} -e 0`, env, project);
      await plain.exited;
      baseline.push(performance.now() - t0);

      const t1 = performance.now();
      const keel = new Pty(`${node} ${JSON.stringify(BIN)}`, env, project);
      startup.push((await keel.waitFor(PROMPT_TEXT)) - t1);
      const mark = keel.output.length;
      keel.write("hello\r");
      await keel.waitFor("type ahead", mark);
      const busyMark = keel.output.indexOf("type ahead", mark);
      const shown = await keel.waitFor(PROMPT_TEXT, busyMark);
      endOfTurn.push(shown - lastTokenAt);
      keel.write("\x03\x03");
      await keel.exited;
    }
  } finally {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const b = median(baseline);
  const s = median(startup);
  const e = median(endOfTurn);
  console.log(`TUI benchmark (${N} runs, medians; pseudo-terminal 80×24; simulator on loopback)`);
  console.log(`  node -e 0 (baseline)              ${b.toFixed(0).padStart(6)} ms`);
  console.log(
    `  keel start → first prompt         ${s.toFixed(0).padStart(6)} ms  = ${(s / b).toFixed(2)}× node -e 0`,
  );
  console.log(
    `  last streamed token → prompt back ${e.toFixed(0).padStart(6)} ms  = ${(e / b).toFixed(2)}× node -e 0`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
