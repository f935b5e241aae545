#!/usr/bin/env node
/**
 * Builds native/ (hooks started by vfork and waited for on a thread; why in its files) with
 * node-gyp, which npm ships, into dist/native/keel-spawn.node.
 * Run by `npm run build` after the bundle.
 *
 * Offline: node-gyp is always given a folder of Node's headers that is already on this machine
 * (`nodeHeaders` below: the running Node's own install, which the `node` package from npm that
 * scripts/node22.sh installs carries, or the system's), so it never downloads them. Without
 * one the spawner is not built, and the build says so.
 *
 * Optional by design: without a C compiler or Node's headers, or off Linux, Keel starts hooks
 * through child_process.spawn (correct, slower per hook) and this script says so, writes the
 * reason to dist/native/not-built.txt (which `keel doctor` reports) and exits 0.
 * KEEL_NO_NATIVE=1 skips it.
 */
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SRC = join(ROOT, "native");
const OUT = join(ROOT, "dist/native/keel-spawn.node");
const say = (text) => process.stderr.write(`keel build: ${text}\n`);

function nodeGyp() {
  // npm tells its scripts where its node-gyp is; outside npm, look beside npm itself.
  if (process.env.npm_config_node_gyp) return process.env.npm_config_node_gyp;
  const npm = process.env.npm_execpath ?? npmOnPath();
  const beside = npm ? join(dirname(npm), "../node_modules/node-gyp/bin/node-gyp.js") : "";
  return beside && existsSync(beside) ? beside : null;
}

/** npm's own script (…/npm/bin/npm-cli.js) behind the `npm` on PATH, or null. */
function npmOnPath() {
  for (const dir of (process.env.PATH ?? "").split(":")) {
    try {
      if (dir) return realpathSync(join(dir, "npm"));
    } catch {
      // Not in this folder.
    }
  }
  return null;
}

/** The major version in a headers folder's include/node/node_version.h, or null. */
function headersMajor(dir) {
  try {
    const h = readFileSync(join(dir, "include/node/node_version.h"), "utf8");
    const m = /#define NODE_MAJOR_VERSION (\d+)/.exec(h);
    return m && existsSync(join(dir, "include/node/common.gypi")) ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/**
 * A folder holding include/node/ for this Node's major version (node-gyp's --nodedir), found
 * on disk: npm's nodedir setting when it names one; the prefix of the running node (an official
 * tarball: prefix/bin/node beside prefix/include/node); the platform package of npm's `node`
 * package (node_modules/node/bin/node, headers in its node-<platform>-<arch> dependency, nested
 * or hoisted); the system's /usr and /usr/local. Or null.
 */
export function nodeHeaders(
  execPath = process.execPath,
  configured = process.env.npm_config_nodedir,
) {
  let real = execPath;
  try {
    real = realpathSync(execPath);
  } catch {
    // The path as given.
  }
  const prefix = dirname(dirname(real));
  const platformPackage = `node-${process.platform}-${process.arch}`;
  const candidates = [
    configured,
    prefix,
    join(prefix, "node_modules", platformPackage),
    join(prefix, "..", platformPackage),
    "/usr/local",
    "/usr",
  ].filter(Boolean);
  const major = Number(process.versions.node.split(".")[0]);
  return candidates.find((dir) => headersMajor(dir) === major) ?? null;
}

const newer = (a, b) => statSync(a).mtimeMs >= statSync(b).mtimeMs;

/**
 * Why the spawner cannot be built here (one phrase), or null when it can: Linux, a C compiler,
 * node-gyp and Node's headers on disk. `--why-not` prints it (test/hooks/fast-spawn.test.ts
 * expects the spawner loaded exactly when this is null).
 */
export function whyNot() {
  if (process.env.KEEL_NO_NATIVE === "1") return "skipped by KEEL_NO_NATIVE=1";
  if (process.platform !== "linux") return "the native spawner is Linux-only";
  const cc = process.env.CC || "cc";
  if (spawnSync(cc, ["--version"], { stdio: "ignore" }).status !== 0) {
    return `no C compiler (${cc})`;
  }
  if (!nodeGyp()) return "node-gyp not found (run the build through npm)";
  if (!nodeHeaders()) return `no headers for Node ${process.version} on this machine`;
  return null;
}

/** The build's reason for not building, next to where the spawner would be: Keel's doctor
 *  (src/hooks/fast-spawn.ts) reports it. Removed when the spawner is built. */
const NOT_BUILT = join(ROOT, "dist/native/not-built.txt");

function notBuilt(reason) {
  // An older build's spawner would load although this build says there is none.
  rmSync(OUT, { force: true });
  mkdirSync(dirname(NOT_BUILT), { recursive: true });
  writeFileSync(NOT_BUILT, `${reason}\n`);
  say(`native spawner not built (${reason});`);
  say("hooks start through child_process.spawn (slower per hook; everything else the same)");
}

function main() {
  const reason = whyNot();
  if (reason) return notBuilt(reason);
  rmSync(NOT_BUILT, { force: true });
  const sources = readdirSync(SRC)
    .filter((f) => /\.(c|h|gyp)$/.test(f))
    .map((f) => join(SRC, f));
  if (existsSync(OUT) && sources.every((s) => newer(OUT, s))) return;
  const headers = nodeHeaders();
  // --nodedir: node-gyp uses these headers and fetches nothing (a fetch offline can hang).
  const r = spawnSync(
    process.execPath,
    [nodeGyp(), "rebuild", `--directory=${SRC}`, `--nodedir=${headers}`],
    {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 120_000,
      env: { ...process.env, npm_config_nodedir: headers },
    },
  );
  const built = join(SRC, "build/Release/keel-spawn.node");
  if (r.status !== 0 || !existsSync(built)) {
    const why = `${r.stderr}\n${r.stdout}`
      .split("\n")
      .find((l) => /error|not found|ERR!/i.test(l) && !/^gyp info/.test(l));
    const ended = r.error ? `node-gyp: ${r.error.message}` : `node-gyp exited ${r.status}`;
    return notBuilt(why?.trim() || ended);
  }
  // A new file renamed over the old one: a running Keel has the old one mapped, and writing
  // into it would change its code under it.
  mkdirSync(dirname(OUT), { recursive: true });
  copyFileSync(built, `${OUT}.tmp`);
  renameSync(`${OUT}.tmp`, OUT);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === "--why-not") process.stdout.write(`${whyNot() ?? ""}\n`);
  else main();
}
