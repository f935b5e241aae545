#!/usr/bin/env node
// Keel's command-line entry. Kept tiny and dependency-free so a too-old Node gets a clear
// sentence instead of a syntax error.
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  // `npm run setup` on an older Node installs Node 22 into this cache (scripts/node22.sh) and
  // links this file, whose `#!/usr/bin/env node` then finds the old one: hand over to Node 22.
  const { existsSync } = await import("node:fs");
  const { join } = await import("node:path");
  const { homedir } = await import("node:os");
  const cache =
    process.env.KEEL_NODE_CACHE ||
    join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "keel-node");
  const newer = join(cache, "node_modules", ".bin", "node");
  if (!existsSync(newer) || process.env.KEEL_REEXEC === "1") {
    process.stderr.write(
      `keel: Node.js 22.12 or newer is required (this is ${process.version}); \`npm run setup\` in the keel checkout installs it.\n`,
    );
    process.exit(1);
  }
  const { spawn } = await import("node:child_process");
  const { fileURLToPath } = await import("node:url");
  const child = spawn(newer, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: "inherit",
    env: { ...process.env, KEEL_REEXEC: "1" },
  });
  // The terminal signals the whole foreground group; the child decides, this process waits.
  for (const sig of ["SIGINT", "SIGQUIT", "SIGTERM", "SIGHUP"]) {
    process.on(sig, () => {
      if (sig !== "SIGINT" && sig !== "SIGQUIT") child.kill(sig);
    });
  }
  child.on("exit", (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    process.exit(code ?? 1);
  });
  child.on("error", (err) => {
    process.stderr.write(`keel: could not start ${newer}: ${err.message}\n`);
    process.exit(1);
  });
  await new Promise(() => {});
}
// process.getBuiltinModule: an ESM import of node:fs would load its promises API and streams.
const { fstatSync, readFileSync, writeSync } = process.getBuiltinModule("node:fs");
/** Short output straight to fd 1: process.stdout's stream costs ~1 ms to create. */
const print = (text) => {
  let rest = Buffer.from(text);
  while (rest.length > 0) {
    try {
      rest = rest.subarray(writeSync(1, rest));
    } catch (err) {
      if (err?.code === "EPIPE") return;
      if (err?.code !== "EAGAIN") throw err;
      // A full non-blocking pipe: the stream waits for it to drain.
      process.stdout.write(rest);
      return;
    }
  }
};
// `keel --version` alone needs no program at all: package.json holds the version (src/version.ts
// is kept equal to it by a test).
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  print(`${pkg.version}\n`);
  process.exit(0);
}
// `keel --help` alone: the root help as commander prints it, written by the build from the full
// program (dist/bundle/help.json; test/cli/lazy-start.test.ts compares the two). Used when
// commander would lay it out at 80 columns (not a terminal, or one 80 wide) and the build is
// this version's; otherwise src/cli/main.ts builds it.
if (args.length === 1 && (args[0] === "--help" || args[0] === "-h")) {
  // Only a character device can be a terminal: a pipe or a file is known without creating
  // process.stdout (node:tty and the stream modules it needs cost ~2 ms).
  let characterDevice = true;
  try {
    characterDevice = fstatSync(1).isCharacterDevice();
  } catch {
    // Unknown: ask the stream.
  }
  if (!characterDevice || !process.stdout.isTTY || process.stdout.columns === 80) {
    const read = (rel) => {
      try {
        return JSON.parse(readFileSync(new URL(rel, import.meta.url), "utf8"));
      } catch {
        return null;
      }
    };
    const built = read("../dist/bundle/help.json");
    if (typeof built?.help === "string" && built.version === read("../package.json")?.version) {
      print(built.help);
      process.exit(0);
    }
  }
}
// `keel … | head` closes the pipe early: stop quietly instead of crashing with EPIPE. The
// handler is attached when process.stdout is first created: commands that print through
// src/cli/stdout.ts never create the stream (its modules cost start-up time).
// While this symbol is true, src/cli/stdout.ts writes to fd 1 itself.
const UNOPENED = Symbol.for("keel.stdout.unopened");
const stdoutGetter = Object.getOwnPropertyDescriptor(process, "stdout");
if (stdoutGetter?.get && stdoutGetter.configurable) {
  process[UNOPENED] = true;
  Object.defineProperty(process, "stdout", {
    configurable: true,
    enumerable: stdoutGetter.enumerable,
    get() {
      process[UNOPENED] = false;
      const stream = stdoutGetter.get.call(process);
      Object.defineProperty(process, "stdout", { ...stdoutGetter, get: () => stream });
      stream.on("error", (err) => {
        if (err && err.code === "EPIPE") process.exit(process.exitCode ?? 0);
        throw err;
      });
      return stream;
    },
  });
} else {
  process.stdout.on("error", (err) => {
    if (err && err.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw err;
  });
}
// V8 keeps the compiled bundle in the OS temp directory, so later starts skip compiling it.
// NODE_DISABLE_COMPILE_CACHE=1 turns this off.
const { enableCompileCache, registerHooks } = process.getBuiltinModule("node:module");
try {
  enableCompileCache?.();
} catch {
  // A read-only temp directory only costs start-up time.
}

// The bundle's chunks import each other by relative name ("./chunk-X.mjs"): resolve those
// directly instead of through Node's full resolution (stat, realpath, package.json scope per
// import; ~3 ms over the chunks of `keel hooks list`). module.registerHooks is in Node 22.15+.
const bundleDir = new URL("../dist/bundle/", import.meta.url).href;
registerHooks?.({
  resolve(specifier, context, nextResolve) {
    if (
      specifier.startsWith("./") &&
      specifier.endsWith(".mjs") &&
      context.parentURL?.startsWith(bundleDir)
    ) {
      const url = new URL(specifier, context.parentURL).href;
      return { url, format: "module", shortCircuit: true };
    }
    return nextResolve(specifier, context);
  },
});

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
