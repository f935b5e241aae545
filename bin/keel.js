#!/usr/bin/env node
// Keel's command-line entry. Kept tiny and dependency-free so `keel --version` is instant and a
// too-old Node gets a clear sentence instead of a syntax error.
const major = Number(process.versions.node.split(".")[0]);
if (major < 22) {
  process.stderr.write(`keel: Node.js 22 or newer is required (this is ${process.version}).\n`);
  process.exit(1);
}
let mod;
try {
  mod = await import("../dist/cli/main.js");
} catch (err) {
  if (
    err &&
    err.code === "ERR_MODULE_NOT_FOUND" &&
    String(err.message).includes("dist/cli/main.js")
  ) {
    process.stderr.write("keel: not built yet; run `npm run build` in the keel checkout first.\n");
    process.exit(1);
  }
  throw err;
}
process.exitCode = await mod.main(process.argv.slice(2));
