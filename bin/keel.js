#!/usr/bin/env node
// Keel's command-line entry. Kept tiny and dependency-free so a too-old Node gets a clear
// sentence instead of a syntax error.
const major = Number(process.versions.node.split(".")[0]);
if (major < 22) {
  process.stderr.write(`keel: Node.js 22 or newer is required (this is ${process.version}).\n`);
  process.exit(1);
}
// `keel --version` alone needs no program at all: package.json holds the version (src/version.ts
// is kept equal to it by a test).
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  const { readFileSync } = await import("node:fs");
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  process.stdout.write(`${pkg.version}\n`);
  process.exit(0);
}
// `keel … | head` closes the pipe early: stop quietly instead of crashing with EPIPE.
process.stdout.on("error", (err) => {
  if (err && err.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw err;
});
// V8 keeps the compiled bundle in the OS temp directory, so later starts skip compiling it.
// NODE_DISABLE_COMPILE_CACHE=1 turns this off.
const { enableCompileCache } = await import("node:module");
try {
  enableCompileCache?.();
} catch {
  // A read-only temp directory only costs start-up time.
}

// `npm run build` writes the bundled CLI (dist/bundle/keel.mjs, fast to start) next to tsc's
// dist/cli/main.js; the latter is the fallback for builds that only ran tsc.
const candidates = ["../dist/bundle/keel.mjs", "../dist/cli/main.js"];
let mod;
for (const path of candidates) {
  try {
    mod = await import(path);
    break;
  } catch (err) {
    const missing =
      err && err.code === "ERR_MODULE_NOT_FOUND" && String(err.message).includes(path.slice(3));
    if (!missing) throw err;
  }
}
if (!mod) {
  process.stderr.write("keel: not built yet; run `npm run build` in the keel checkout first.\n");
  process.exit(1);
}
process.exitCode = await mod.main(args);
