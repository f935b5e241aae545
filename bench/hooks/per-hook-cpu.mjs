/**
 * CPU of one in-order hook run through the engine, for several builds in the same run (issue 29's
 * "one hook run, one after another" row, without the agent around it):
 *
 *   node bench/hooks/per-hook-cpu.mjs /path/to/base/dist /path/to/other/dist …
 *
 * Each build's engine fires PreToolUse with 32 command hooks (`echo k >> file`, the bench/peers
 * row's) 10 times in a process of its own (one process per build and round: one build's
 * garbage must not be collected on another's time), ROUNDS rounds (default 6) alternating the
 * builds, and the same hooks are spawned bare through the build's fastRun alongside (the
 * floor). Reported per hook run: the process's CPU (user+sys) and its reaped children's
 * (/proc/self/stat, 10 ms ticks). Plain JavaScript on purpose: it loads each build's tsc
 * output (dist/) as it is.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROUNDS = Number(process.env.ROUNDS ?? 6);
const FIRES = 10;
const HOOKS = 32;
const args = process.argv.slice(2);
if (args.length === 0) {
  console.error("usage: node bench/hooks/per-hook-cpu.mjs DIST [DIST…]");
  process.exit(2);
}
if (args[0] !== "--one") {
  // The parent: one child process per build and round, the builds' order rotating.
  const dists = args.map((d) => resolve(d));
  const sums = dists.map(() => [0, 0, 0, 0]);
  for (let round = 0; round < ROUNDS; round++) {
    for (let j = 0; j < dists.length; j++) {
      const i = (round + j) % dists.length;
      const out = execFileSync(process.execPath, [import.meta.filename, "--one", dists[i]], {
        encoding: "utf8",
      });
      JSON.parse(out).forEach((v, k) => {
        sums[i][k] += v;
      });
    }
  }
  const runs = ROUNDS * FIRES * HOOKS;
  const ms = (x) => (x / runs).toFixed(3);
  console.log(`CPU per hook run (${runs} runs each; Keel's process + its hooks' processes):`);
  dists.forEach((d, i) => {
    const [es, ek, fs, fk] = sums[i];
    console.log(
      `  ${d}: engine ${ms(es)} + ${ms(ek)} = ${ms(es + ek)} ms; bare spawn ${ms(fs)} + ${ms(fk)} = ${ms(fs + fk)} ms`,
    );
  });
  process.exit(0);
}
const dists = [resolve(args[1])];

const root = mkdtempSync(join(tmpdir(), "keel-per-hook-"));
const project = join(root, "project");
const keelHome = join(root, "keel");
mkdirSync(project, { recursive: true });
mkdirSync(keelHome, { recursive: true });
const counter = join(root, "count");
writeFileSync(counter, "");
const command = (k) => `echo ${k} >> '${counter}'`;
const hooks = Array.from({ length: HOOKS }, (_, k) => ({ type: "command", command: command(k) }));
writeFileSync(
  join(keelHome, "settings.json"),
  JSON.stringify({ hooks: { PreToolUse: [{ matcher: "read_file", hooks }] } }),
);

/** Each build's engine, payload and bare spawn. */
const builds = [];
for (const dist of dists) {
  const { createHookEngine } = await import(join(dist, "hooks/engine.js"));
  const { buildPayload } = await import(join(dist, "hooks/payload.js"));
  const { fastRun } = await import(join(dist, "hooks/fast-spawn.js"));
  const engine = await createHookEngine({ projectDir: project, keelHome, homeDir: root });
  const payload = buildPayload("PreToolUse", {
    projectDir: project,
    tool: "read_file",
    input: { path: "notes-0.txt" },
  });
  const stdin = `${JSON.stringify(payload)}\n`;
  const env = { ...process.env };
  const bare = (k) =>
    new Promise((done) => {
      const opts = { cwd: project, env, stdin, maxOutputBytes: 1 << 20, pipeGraceMs: 200 };
      if (fastRun("/bin/sh", ["-c", command(k)], opts, (r) => r.final && done()) === null)
        throw new Error(`${dist}: the native spawner is not built`);
    });
  const fire = async () => {
    const d = await engine.fire({ event: "PreToolUse", payload });
    if (d.runs.length !== HOOKS) throw new Error(`${dist}: ${d.runs.length} hook runs`);
  };
  builds.push({ dist, fire, bare, engine: { self: 0, kids: 0 }, floor: { self: 0, kids: 0 } });
}

const selfMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const childrenMs = () => {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[13]) + Number(f[14])) * 10;
};

const [b] = builds;
for (let i = 0; i < 3; i++) await b.fire();
for (const which of ["engine", "floor"]) {
  const [s, c] = [selfMs(), childrenMs()];
  for (let i = 0; i < FIRES; i++) {
    if (which === "engine") await b.fire();
    else for (let k = 0; k < HOOKS; k++) await b.bare(k);
  }
  b[which].self += selfMs() - s;
  b[which].kids += childrenMs() - c;
}
console.log(JSON.stringify([b.engine.self, b.engine.kids, b.floor.self, b.floor.kids]));
rmSync(root, { recursive: true, force: true });
process.exit(0);
