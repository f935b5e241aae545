/**
 * Hooks engine benchmark: ratios measured in one run on this machine.
 *
 *   npx tsx bench/hooks/run.ts
 *
 * 1. one trivial command hook fired through the engine vs a bare spawn of the same `sh -c`
 *    (medians, interleaved): target ≤ 1.15×
 * 2. eight hooks each sleeping 200 ms on one event: wall / 200 ms, target ≤ 1.3
 * 3. 1000 fires whose matcher or `if` does not match: processes spawned (must be 0), µs/fire
 *
 * Exits non-zero when a target is missed.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createHookEngine } from "../../src/hooks/engine.js";
import { fastRun, nativeSpawnAvailable } from "../../src/hooks/fast-spawn.js";
import { HookEnvironments } from "../../src/hooks/hook-env.js";
import { buildPayload } from "../../src/hooks/payload.js";
import type { SpawnFn } from "../../src/hooks/process.js";

const N = Number(process.env.BENCH_N ?? 80);
const TRIVIAL = "true";

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

/**
 * A bare spawn of `sh -c command`. `group: true` starts it the way the engine does (the native
 * spawner where it is built, else child_process.spawn; its own process group, payload on
 * stdin) so the ratio isolates the engine's own overhead; `group: false` is node's plainest
 * child_process.spawn, to show what the spawner saves.
 */
/** The user's environment as the engine hands it to the spawner (hook-env.ts), made once: the
 *  bare spawn pays no environment building at all. */
const BARE_ENV = new HookEnvironments(process.env as Record<string, string>).get({}, undefined);

function bareSpawn(
  command: string,
  cwd: string,
  opts: { group: boolean; stdin?: string },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const fast = opts.group
      ? fastRun(
          "/bin/sh",
          ["-c", command],
          {
            cwd,
            env: BARE_ENV,
            stdin: opts.stdin ?? "",
            maxOutputBytes: 1 << 20,
            pipeGraceMs: 200,
          },
          (r) => {
            if (r.final) resolve();
          },
        )
      : null;
    if (fast !== null) return;
    const child = spawn("/bin/sh", ["-c", command], {
      cwd,
      stdio: ["pipe", "pipe", "pipe"],
      detached: opts.group,
    });
    child.stdout.resume();
    child.stderr.resume();
    child.stdin.on("error", () => {});
    child.stdin.end(opts.stdin ?? "");
    child.on("error", reject);
    child.on("close", () => resolve());
  });
}

function world(settings: unknown) {
  const root = mkdtempSync(join(tmpdir(), "keel-bench-"));
  const project = join(root, "project");
  const keelHome = join(root, "keel");
  mkdirSync(project, { recursive: true });
  mkdirSync(keelHome, { recursive: true });
  writeFileSync(join(keelHome, "settings.json"), JSON.stringify(settings));
  return { root, project, keelHome };
}

const results: { name: string; value: string; pass: boolean }[] = [];
const info: string[] = [];

async function overhead() {
  const w = world({
    hooks: { PreToolUse: [{ matcher: "shell", hooks: [{ type: "command", command: TRIVIAL }] }] },
  });
  const engine = await createHookEngine({
    projectDir: w.project,
    keelHome: w.keelHome,
    homeDir: w.root,
  });
  const payload = buildPayload("PreToolUse", {
    projectDir: w.project,
    tool: "shell",
    input: { command: "ls" },
  });
  const stdin = `${JSON.stringify(payload)}\n`;
  const samples: Record<"engine" | "bare" | "plain", number[]> = {
    engine: [],
    bare: [],
    plain: [],
  };
  const run = async (which: keyof typeof samples) => {
    if (which === "engine") {
      const d = await engine.fire({ event: "PreToolUse", payload });
      if (d.runs[0]?.outcome !== "pass")
        throw new Error(`hook did not pass: ${JSON.stringify(d.runs[0])}`);
    } else await bareSpawn(TRIVIAL, w.project, { group: which === "bare", stdin });
  };
  const measure = async (kinds: ReadonlyArray<keyof typeof samples>) => {
    for (let i = 0; i < 10; i++) for (const k of kinds) await run(k);
    for (let i = 0; i < N; i++) {
      // Interleaved, rotating which goes first, so machine noise hits every kind alike.
      for (let j = 0; j < kinds.length; j++) {
        const k = kinds[(i + j) % kinds.length] ?? "engine";
        const t = performance.now();
        await run(k);
        samples[k].push(performance.now() - t);
      }
    }
  };
  // child_process.spawn apart: its fork() leaves every page of this process copy-on-write, and
  // the writes after it fault, which would land on whichever run comes next.
  await measure(["engine", "bare"]);
  await measure(["plain"]);
  const [e, b, p] = [median(samples.engine), median(samples.bare), median(samples.plain)];
  results.push({
    name: `1. trivial hook via engine vs bare spawn of the same sh -c, same spawn options (median of ${N}): ${e.toFixed(2)} ms / ${b.toFixed(2)} ms`,
    value: `${(e / b).toFixed(3)}× (target ≤ 1.15×)`,
    pass: e / b <= 1.15,
  });
  const spawner = nativeSpawnAvailable() ? "the native spawner" : "child_process.spawn";
  info.push(
    `   info: the engine and the bare spawn both start hooks through ${spawner}; node's plainest child_process.spawn (no process group, empty stdin): ${p.toFixed(2)} ms (engine / plain = ${(e / p).toFixed(3)}×)`,
  );
  rmSync(w.root, { recursive: true, force: true });
}

async function parallel() {
  const hooks = Array.from({ length: 8 }, (_, i) => ({
    type: "command",
    command: `sleep 0.2 # hook ${i}`,
  }));
  const w = world({ hooks: { Stop: [{ hooks }] } });
  const engine = await createHookEngine({
    projectDir: w.project,
    keelHome: w.keelHome,
    homeDir: w.root,
  });
  const payload = buildPayload("Stop", { projectDir: w.project });
  const walls: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < 7; i++) {
    let t = performance.now();
    const d = await engine.fire({ event: "Stop", payload });
    walls.push(performance.now() - t);
    if (d.runs.length !== 8) throw new Error(`expected 8 runs, got ${d.runs.length}`);
    // The floor on this machine: the same eight commands spawned directly, all at once.
    t = performance.now();
    await Promise.all(hooks.map((h) => bareSpawn(h.command, w.project, { group: true })));
    bare.push(performance.now() - t);
  }
  const ratio = median(walls) / 200;
  results.push({
    name: `2. eight 200 ms hooks on one event (median of 7): ${median(walls).toFixed(1)} ms wall (min ${Math.min(...walls).toFixed(1)}; eight bare spawns at once: median ${median(bare).toFixed(1)} ms)`,
    value: `${ratio.toFixed(3)} (target ≤ 1.3)`,
    pass: ratio <= 1.3,
  });
  rmSync(w.root, { recursive: true, force: true });
}

async function nonMatching() {
  const group = (i: number) => [
    { matcher: "write_file|edit_file", hooks: [{ type: "command", command: `echo matcher ${i}` }] },
    {
      matcher: "shell",
      hooks: [{ type: "command", command: `echo if ${i}`, if: "Bash(git push*)" }],
    },
  ];
  const w = world({ hooks: { PreToolUse: Array.from({ length: 10 }, (_, i) => group(i)).flat() } });
  let spawned = 0;
  const counting: SpawnFn = (file, args, options) => {
    spawned++;
    return spawn(file, [...args], options);
  };
  const engine = await createHookEngine({
    projectDir: w.project,
    keelHome: w.keelHome,
    homeDir: w.root,
    spawn: counting,
  });
  const payload = buildPayload("PreToolUse", {
    projectDir: w.project,
    tool: "shell",
    input: { command: "git status && ls -la" },
  });
  for (let i = 0; i < 100; i++) await engine.fire({ event: "PreToolUse", payload });
  const t = performance.now();
  for (let i = 0; i < 1000; i++) await engine.fire({ event: "PreToolUse", payload });
  const us = ((performance.now() - t) * 1000) / 1000;
  results.push({
    name: "3. 1000 fires, 20 hooks whose matcher or `if` does not match",
    value: `${spawned} processes spawned (target 0), ${us.toFixed(1)} µs/fire`,
    pass: spawned === 0,
  });
  rmSync(w.root, { recursive: true, force: true });
}

await overhead();
await parallel();
await nonMatching();
for (const r of results) console.log(`${r.pass ? "PASS" : "FAIL"}  ${r.name}: ${r.value}`);
for (const line of info) console.log(line);
process.exit(results.every((r) => r.pass) ? 0 : 1);
