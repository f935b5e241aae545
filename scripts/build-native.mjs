#!/usr/bin/env node
/**
 * Builds native/ (hooks started by vfork and waited for on a thread; why in its files) with
 * node-gyp, which npm ships, into dist/native/keel-spawn.node.
 * Run by `npm run build` after the bundle.
 *
 * Optional by design: without a C compiler, or off Linux, Keel starts hooks through
 * child_process.spawn (correct, ~1–1.5 ms slower per hook) and this script says so in one
 * line and exits 0. KEEL_NO_NATIVE=1 skips it.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SRC = join(ROOT, "native");
const OUT = join(ROOT, "dist/native/keel-spawn.node");
const say = (text) => process.stderr.write(`keel build: ${text}\n`);

function nodeGyp() {
  // npm tells its scripts where its node-gyp is; outside npm, look beside npm itself.
  if (process.env.npm_config_node_gyp) return process.env.npm_config_node_gyp;
  const npm = process.env.npm_execpath;
  const beside = npm ? join(dirname(npm), "../node_modules/node-gyp/bin/node-gyp.js") : "";
  return beside && existsSync(beside) ? beside : null;
}

const newer = (a, b) => statSync(a).mtimeMs >= statSync(b).mtimeMs;

function main() {
  if (process.env.KEEL_NO_NATIVE === "1") return say("native spawner skipped (KEEL_NO_NATIVE=1)");
  if (process.platform !== "linux") {
    return say("no native spawner off Linux; hooks start through child_process.spawn");
  }
  const sources = readdirSync(SRC)
    .filter((f) => /\.(c|h|gyp)$/.test(f))
    .map((f) => join(SRC, f));
  if (existsSync(OUT) && sources.every((s) => newer(OUT, s))) return;
  const gyp = nodeGyp();
  if (!gyp)
    return say("node-gyp not found (run through npm); hooks start through child_process.spawn");
  // node-gyp fetches Node's headers unless npm names a folder of them (nodedir); offline, a
  // fetch can hang, and the build must not: give up after two minutes.
  const r = spawnSync(process.execPath, [gyp, "rebuild", `--directory=${SRC}`], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 120_000,
  });
  const built = join(SRC, "build/Release/keel-spawn.node");
  if (r.status !== 0 || !existsSync(built)) {
    const why = `${r.stderr}\n${r.stdout}`
      .split("\n")
      .find((l) => /error|not found|ERR!/i.test(l) && !/^gyp info/.test(l));
    const ended = r.error ? `node-gyp: ${r.error.message}` : `node-gyp exited ${r.status}`;
    say(`native spawner not built (${why?.trim() || ended});`);
    say("hooks start through child_process.spawn (slower per hook; everything else the same)");
    return;
  }
  // A new file renamed over the old one: a running Keel has the old one mapped, and writing
  // into it would change its code under it.
  mkdirSync(dirname(OUT), { recursive: true });
  copyFileSync(built, `${OUT}.tmp`);
  renameSync(`${OUT}.tmp`, OUT);
}

main();
