/**
 * A module for `node --import` before bin/keel.js that logs, in order: every file module the
 * process loads (`LOADED <url>`), every V8 flag set at run time (`FLAGS <flags>`) and, when the
 * TUI first writes its prompt, `FRAME` (after `BUILTIN assert` if node:assert was loaded by
 * then). Start-up tests read the order from the log. Optionally it holds that first frame back
 * (see `holdFrame`).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Writes the probe into `dir`; `lines()` reads what it logged so far. With `holdFrame`, the
 * first frame's write waits (the whole process does, as while it loads modules) until that file
 * exists: a test then types "before the first frame" whatever the machine's load.
 */
export function writeStartProbe(
  dir: string,
  opts: { holdFrame?: string } = {},
): { probe: string; lines: () => string[] } {
  const probe = join(dir, "start-probe.mjs");
  const log = join(dir, "start-probe.log");
  const hold = opts.holdFrame
    ? `note("HELD");
    const pause = new Int32Array(new SharedArrayBuffer(4));
    const until = Date.now() + 60000;
    while (!existsSync(${JSON.stringify(opts.holdFrame)}) && Date.now() < until) Atomics.wait(pause, 0, 0, 5);`
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
