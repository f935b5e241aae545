#!/usr/bin/env node
// Installs another agent from the npm registry into a cache directory (never into this package)
// and prints the command that runs it. Used by the differential tests (`npm run compat:*`) and by
// bench/peers, so Keel is measured against the real binaries without depending on them.
//
//   node scripts/install-peer.mjs claude|reasonix|gemini|qwen|codex [--version V|latest] [--json]
//
// `--version latest` asks the registry (`npm view <pkg> version`) for its current release, so the
// compat runs can measure drift between the pinned version and what users install today.
//
// Each package@version gets its own folder under $KEEL_PEERS_DIR (default ~/.cache/keel-peers):
// `npm install --no-save` into a shared prefix would prune the others. The native agents ship their
// binary in a per-platform optional package; this npm may not run their postinstall step, so the
// binary is taken from that package directly rather than from the launcher in node_modules/.bin.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const platform = `${process.platform}-${process.arch}`;

/** What to install for each peer, the version measured by default, and where its entry point lands. */
export const PEERS = {
  claude: {
    pkg: "@anthropic-ai/claude-code",
    version: "2.1.332",
    entry: () => ({
      file: `node_modules/@anthropic-ai/claude-code-${platform}/claude`,
      node: false,
    }),
  },
  reasonix: {
    pkg: "reasonix",
    version: "1.38.11",
    entry: () => ({ file: `node_modules/@reasonix/cli-${platform}/bin/reasonix`, node: false }),
  },
  gemini: {
    pkg: "@google/gemini-cli",
    version: "0.61.0",
    entry: () => ({ file: "node_modules/@google/gemini-cli/bundle/gemini.js", node: true }),
  },
  codex: {
    pkg: "@openai/codex",
    version: "0.171.0",
    // The launcher (bin/codex.js) only picks this binary; run it directly (no Node in between).
    entry: () => ({
      file: `node_modules/@openai/codex-${platform}/vendor/${process.arch === "arm64" ? "aarch64" : "x86_64"}-unknown-linux-musl/bin/codex`,
      node: false,
    }),
  },
  qwen: {
    pkg: "@qwen-code/qwen-code",
    version: "0.24.4",
    entry: () => ({ file: "node_modules/@qwen-code/qwen-code/cli.js", node: true }),
  },
};

/** The cache folder that holds installed peers. */
export function peersDir() {
  return process.env.KEEL_PEERS_DIR || join(homedir(), ".cache", "keel-peers");
}

/** The registry's current release of peer `name` (its `latest` dist-tag). */
export function latestVersion(name) {
  const peer = PEERS[name];
  if (!peer) throw new Error(`unknown peer "${name}" (known: ${Object.keys(PEERS).join(", ")})`);
  return execFileSync("npm", ["view", peer.pkg, "version"], { encoding: "utf8" }).trim();
}

/**
 * Installs `name` (a key of PEERS) if it is not cached yet and returns how to run it:
 * `{ name, version, command, args }` — spawn `command` with `args` followed by the peer's own arguments.
 */
export function installPeer(name, { version, quiet = false } = {}) {
  const peer = PEERS[name];
  if (!peer) throw new Error(`unknown peer "${name}" (known: ${Object.keys(PEERS).join(", ")})`);
  const v = version === "latest" ? latestVersion(name) : (version ?? peer.version);
  const dir = join(peersDir(), `${name}@${v}`);
  const { file, node } = peer.entry();
  const entry = join(dir, file);
  if (!existsSync(entry)) {
    mkdirSync(dir, { recursive: true });
    if (!quiet) process.stderr.write(`installing ${peer.pkg}@${v} into ${dir}\n`);
    execFileSync(
      "npm",
      ["install", "--no-save", "--no-audit", "--no-fund", "--prefix", dir, `${peer.pkg}@${v}`],
      { stdio: quiet ? "ignore" : ["ignore", "ignore", "inherit"] },
    );
    if (!existsSync(entry)) {
      throw new Error(
        `${peer.pkg}@${v} installed, but ${file} is missing (no build for ${platform}?)`,
      );
    }
  }
  return node
    ? { name, version: v, command: process.execPath, args: [entry] }
    : { name, version: v, command: entry, args: [] };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [name, ...rest] = process.argv.slice(2);
  const vi = rest.indexOf("--version");
  const version = vi >= 0 ? rest[vi + 1] : undefined;
  if (!name || name.startsWith("-")) {
    process.stderr.write(
      `usage: node scripts/install-peer.mjs ${Object.keys(PEERS).join("|")} [--version V] [--json]\n`,
    );
    process.exit(1);
  }
  try {
    const run = installPeer(name, { version });
    process.stdout.write(
      rest.includes("--json")
        ? `${JSON.stringify(run)}\n`
        : `${[run.command, ...run.args].join(" ")}\n`,
    );
  } catch (err) {
    process.stderr.write(`install-peer: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
