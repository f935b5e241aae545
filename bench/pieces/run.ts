/**
 * What each piece of Keel's start-up and hook machinery buys, measured in one run (issue 25,
 * "earn it or delete it"): the same user-visible rows with the current build and with one piece
 * taken out at a time, the variants interleaved so none always runs on a warmer machine.
 *
 *   npm run build && npx tsx bench/pieces/run.ts        (BENCH_N=7 repetitions by default)
 *
 * Rows: `keel --help` (piped), `keel hooks list` with 8 hooks, the first answer of `keel run`
 * (one model reply), and the 20-tool-call `keel run` session with 8 hooks per call.
 * Variants (each is the current build less one piece):
 * - no native spawner: KEEL_NATIVE_SPAWN=0 (hooks start through child_process.spawn);
 * - no direct path: bin/keel.js without its `hooks list` start path (the full program runs it);
 * - no code cache: the direct path without its vm.Script code cache;
 * - no stdout override: process.stdout created as usual (no fd-1 writes before it);
 * - no patch plugins: the bundle built without the esbuild plugins that patch third-party
 *   packages (signal-exit, devtools, yoga, string-width, segmenter);
 * - no import parser: the bundle's lazy shims keep every export name (no regex import reading).
 * Each variant is a copy of bin/ (and for the last two a bundle built by a patched copy of
 * scripts/build-cli.mjs) in a temporary tree beside symlinks to this checkout.
 * BENCH_VARIANTS (comma-separated names) and BENCH_ROWS (name beginnings) run a subset; BENCH_ONLY=runtime skips
 * the two bundle builds.
 * Each process is measured by bench/peers/measure.py; medians of wall, CPU and peak RSS, and
 * each variant's change against the current build. Nothing is asserted: the machine is shared.
 */
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { script } from "../../src/sim/builder.js";
import { startSimulator } from "../../src/sim/server.js";
import { measure, median, type Sample } from "../peers/measure.js";

const N = Number(process.env.BENCH_N ?? 7);
const ROOT = resolve(import.meta.dirname, "../..");
const ONLY = process.env.BENCH_ONLY?.split(",");

/** Replaces `from` (which must occur) in `text`. */
function patch(text: string, from: string, to: string, what: string): string {
  if (!text.includes(from)) throw new Error(`bench/pieces: ${what}: text to patch not found`);
  return text.replace(from, to);
}

/** A tree whose bin/keel.js is this checkout's with `edit` applied, and `dist` this one's or
 *  a bundle of its own. */
function tree(root: string, name: string, edit: (bin: string) => string, dist?: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, "bin"), { recursive: true });
  writeFileSync(join(dir, "bin/keel.js"), edit(readFileSync(join(ROOT, "bin/keel.js"), "utf8")), {
    mode: 0o755,
  });
  copyFileSync(join(ROOT, "bin/package.json"), join(dir, "bin/package.json"));
  copyFileSync(join(ROOT, "package.json"), join(dir, "package.json"));
  for (const link of ["node_modules", "data", "src"])
    symlinkSync(join(ROOT, link), join(dir, link));
  if (dist) symlinkSync(dist, join(dir, "dist"));
  else symlinkSync(join(ROOT, "dist"), join(dir, "dist"));
  return join(dir, "bin/keel.js");
}

/** A bundle built by scripts/build-cli.mjs with `edit` applied, in `root/name-dist`. */
function bundle(root: string, name: string, edit: (build: string) => string): string {
  const src = join(root, `${name}-src`);
  mkdirSync(join(src, "scripts"), { recursive: true });
  for (const link of ["node_modules", "data", "src", "tsconfig.json"]) {
    symlinkSync(join(ROOT, link), join(src, link));
  }
  copyFileSync(join(ROOT, "package.json"), join(src, "package.json"));
  const build = join(src, "scripts/build-cli.mjs");
  writeFileSync(build, edit(readFileSync(join(ROOT, "scripts/build-cli.mjs"), "utf8")));
  const dist = join(root, `${name}-dist`);
  cpSync(join(ROOT, "dist/native"), join(dist, "native"), { recursive: true });
  const r = spawnSync(process.execPath, [build, "--outdir", join(dist, "bundle")], {
    encoding: "utf8",
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (r.status !== 0) throw new Error(`bench/pieces: building ${name} failed`);
  return dist;
}

interface Variant {
  name: string;
  bin: string;
  env: NodeJS.ProcessEnv;
}

function variants(root: string): Variant[] {
  const same = (s: string) => s;
  const v: Variant[] = [
    { name: "current build", bin: join(ROOT, "bin/keel.js"), env: {} },
    { name: "no native spawner", bin: join(ROOT, "bin/keel.js"), env: { KEEL_NATIVE_SPAWN: "0" } },
    {
      name: "no direct path",
      bin: tree(root, "no-direct", (b) =>
        patch(b, 'new Set(["hooks list", "hooks list --json"])', "new Set()", "direct"),
      ),
      env: {},
    },
    {
      name: "no code cache",
      bin: tree(root, "no-cache", (b) =>
        patch(
          b,
          "const cacheFile = cacheDir === null ? null :",
          "const cacheFile = true ? null :",
          "cache",
        ),
      ),
      env: {},
    },
    {
      name: "no stdout override",
      bin: tree(root, "no-stdout", (b) =>
        patch(
          b,
          "  process[UNOPENED] = true;\n",
          '  process.stdout.on("error", onError);\n  return;\n',
          "stdout",
        ),
      ),
      env: {},
    },
  ];
  if (!ONLY?.includes("runtime")) {
    // no-devtools stays: it stands in for a package that is not installed.
    const plugins = [
      "signalExitWithoutAssert",
      "yogaWithoutFetch",
      "fastStringWidth",
      "fastSegmenter",
    ];
    const noPatches = bundle(root, "no-patches", (b) =>
      plugins.reduce((out, p) => patch(out, `    ${p},\n`, "", p), b),
    );
    v.push({ name: "no patch plugins", bin: tree(root, "no-patches", same, noPatches), env: {} });
    const noParser = bundle(root, "no-parser", (b) =>
      patch(b, "usedNames = collected;", "", "parser"),
    );
    v.push({ name: "no import parser", bin: tree(root, "no-parser", same, noParser), env: {} });
  }
  return v;
}

/** A project, a HOME and a KEEL_HOME; `hooks` PreToolUse hooks in Keel's user settings. */
function world(root: string, name: string, simUrl: string, hooks: number, files: number) {
  const dir = join(root, name);
  const project = join(dir, "project");
  const keelHome = join(dir, "home/.keel");
  mkdirSync(project, { recursive: true });
  mkdirSync(keelHome, { recursive: true });
  for (let f = 0; f < files; f++)
    writeFileSync(join(project, `notes-${f}.txt`), `${f}: notes\n`.repeat(40));
  const counter = join(dir, "hook-count");
  writeFileSync(counter, "");
  writeFileSync(
    join(keelHome, "config.json"),
    JSON.stringify({ apiKey: "sk-bench-0123456789", baseUrl: simUrl }),
    {
      mode: 0o600,
    },
  );
  if (hooks > 0) {
    const handlers = Array.from({ length: hooks }, (_, k) => ({
      type: "command",
      command: `echo ${k} >> '${counter}'`,
    }));
    writeFileSync(
      join(keelHome, "settings.json"),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: "read_file", hooks: handlers }] } }),
    );
  }
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: join(dir, "home"),
    KEEL_HOME: keelHome,
    TERM: "dumb",
    NO_COLOR: "1",
  };
  const hookRuns = () => readFileSync(counter, "utf8").split("\n").length - 1;
  return { dir, project, env, hookRuns };
}

let worlds = 0;
async function session(root: string, v: Variant, calls: number, hooks: number): Promise<Sample> {
  const s = script();
  for (let c = 0; c < calls; c++) s.tool("read_file", { path: `notes-${c}.txt` });
  s.text("Read the notes.");
  const sim = await startSimulator({ script: s, keepBodies: false });
  try {
    const w = world(root, `session-${worlds++}`, sim.url, hooks, calls);
    const cmd = [
      v.bin,
      "run",
      "Read the notes.",
      "--yes",
      "--max-turns",
      String(calls + 5),
      "--output-format",
      "json",
    ];
    const r = await measure(cmd, { ...w.env, ...v.env }, w.project);
    if (r.code !== 0 || w.hookRuns() !== calls * hooks) {
      throw new Error(`${v.name}: exit ${r.code}, ${w.hookRuns()} hook runs of ${calls * hooks}`);
    }
    rmSync(w.dir, { recursive: true, force: true });
    return r;
  } finally {
    await sim.close();
  }
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "keel-bench-pieces-"));
  try {
    // BENCH_VARIANTS / BENCH_ROWS: comma-separated names to keep (the current build always runs).
    const keepVariants = process.env.BENCH_VARIANTS?.split(",");
    const vs = variants(root).filter(
      (v) => v.name === "current build" || !keepVariants || keepVariants.includes(v.name),
    );
    const listing = world(root, "listing", "http://127.0.0.1:9", 8, 0);
    type RowRun = (v: Variant) => Promise<Sample>;
    const rows: Array<[string, RowRun]> = [
      ["--help", (v) => measure([v.bin, "--help"], { ...listing.env, ...v.env }, listing.project)],
      [
        "hooks list, 8 hooks",
        (v) => measure([v.bin, "hooks", "list"], { ...listing.env, ...v.env }, listing.project),
      ],
      ["first answer (keel run)", (v) => session(root, v, 0, 0)],
      ["20 tool calls, 8 hooks", (v) => session(root, v, 20, 8)],
    ];
    const keepRows = process.env.BENCH_ROWS?.split(",");
    if (keepRows)
      rows.splice(
        0,
        rows.length,
        ...rows.filter(([name]) => keepRows.some((k) => name.startsWith(k))),
      );
    const samples = new Map<string, Sample[]>();
    // One untimed run each first: code caches and the page cache warm for every variant.
    for (const v of vs) for (const [, run] of rows) await run(v);
    for (let i = 0; i < N; i++) {
      for (const [row, run] of rows) {
        const order = i % 2 === 0 ? vs : [...vs].reverse();
        for (const v of order) {
          const key = `${row}|${v.name}`;
          samples.set(key, [...(samples.get(key) ?? []), await run(v)]);
        }
      }
      process.stderr.write(`bench/pieces: round ${i + 1}/${N}\n`);
    }
    const f = (x: number) => x.toFixed(1);
    console.log(
      "\n| row | variant | wall ms | CPU ms | peak RSS MB | wall vs current | CPU vs current |",
    );
    console.log("|---|---|---|---|---|---|---|");
    for (const [row] of rows) {
      const base = samples.get(`${row}|current build`) ?? [];
      const bw = median(base.map((s) => s.wallMs));
      const bc = median(base.map((s) => s.cpuMs));
      for (const v of vs) {
        const s = samples.get(`${row}|${v.name}`) ?? [];
        const w = median(s.map((x) => x.wallMs));
        const c = median(s.map((x) => x.cpuMs));
        const pct = (a: number, b: number) =>
          `${a >= b ? "+" : ""}${(((a - b) / b) * 100).toFixed(1)} %`;
        console.log(
          `| ${row} | ${v.name} | ${f(w)} | ${f(c)} | ${f(median(s.map((x) => x.rssKb)) / 1024)} | ${pct(w, bw)} | ${pct(c, bc)} |`,
        );
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
