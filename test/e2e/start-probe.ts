/**
 * A module for `node --import` before bin/keel.js that logs, in order: every file module the
 * process loads (`LOADED <url>`), every V8 flag set at run time (`FLAGS <flags>`) and, when the
 * TUI first writes its prompt, `FRAME` (after `BUILTIN assert` if node:assert was loaded by
 * then). Start-up tests read the order from the log. Optionally it holds that first frame back
 * (see `holdFrame`), or timers of one delay (see `holdTimers`).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Writes the probe into `dir`; `lines()` reads what it logged so far. With `holdFrame`, the
 * first frame's write waits (the whole process does, as while it loads modules) until that file
 * exists: a test then types "before the first frame" whatever the machine's load. With
 * `holdTimers`, a timer of exactly `ms` (until `release` exists) logs `TIMER <ms>` and fires only
 * once it is due and `release` exists: a test decides when a question arms (use-armed.ts), so
 * typing "within the pause" does not depend on how fast a loaded machine delivers the keys.
 */
export function writeStartProbe(
  dir: string,
  opts: { holdFrame?: string; holdTimers?: { ms: number; release: string } } = {},
): { probe: string; lines: () => string[] } {
  const probe = join(dir, "start-probe.mjs");
  const log = join(dir, "start-probe.log");
  const hold = opts.holdFrame
    ? `note("HELD");
    const pause = new Int32Array(new SharedArrayBuffer(4));
    const until = Date.now() + 60000;
    while (!existsSync(${JSON.stringify(opts.holdFrame)}) && Date.now() < until) Atomics.wait(pause, 0, 0, 5);`
    : "";
  const timers = opts.holdTimers
    ? `const realSetTimeout = globalThis.setTimeout;
const releaseTimers = ${JSON.stringify(opts.holdTimers.release)};
globalThis.setTimeout = function (fn, ms, ...args) {
  if (ms !== ${opts.holdTimers.ms} || existsSync(releaseTimers)) return realSetTimeout(fn, ms, ...args);
  note("TIMER " + ms);
  const due = Date.now() + ms;
  // An interval's handle: clearTimeout cancels it like the timer it stands for.
  const poll = setInterval(() => {
    if (Date.now() < due || !existsSync(releaseTimers)) return;
    clearInterval(poll);
    fn(...args);
  }, 5);
  return poll;
};`
    : "";
  writeFileSync(
    probe,
    `import { appendFileSync, existsSync } from "node:fs";
import { registerHooks, syncBuiltinESMExports } from "node:module";
import v8 from "node:v8";
const note = (line) => appendFileSync(${JSON.stringify(log)}, line + "\\n");
registerHooks({ load(url, ctx, next) {
  if (url.startsWith("file:")) note("LOADED " + url);
  return next(url, ctx);
} });
const setFlags = v8.setFlagsFromString;
v8.setFlagsFromString = (flags) => { note("FLAGS " + flags); return setFlags(flags); };
syncBuiltinESMExports();
${timers}
const write = process.stdout.write;
let framed = false;
process.stdout.write = function (chunk, ...rest) {
  if (String(chunk).includes("ask Keel") && !framed) {
    framed = true;
    if (process.moduleLoadList.includes("NativeModule assert")) note("BUILTIN assert");
    note("FRAME");
    ${hold}
  }
  return write.call(this, chunk, ...rest);
};`,
  );
  return {
    probe,
    lines: () => (existsSync(log) ? readFileSync(log, "utf8").split("\n") : []),
  };
}
