/**
 * The driver both differential tests share: install the peer, run each case through it and
 * through Keel, print one line per case and the totals. `--only <text>` runs the cases whose name
 * contains the text; `--dump <text>` also prints both raw observations of those cases.
 * `--latest` runs the registry's current release of the peer too: Keel is compared against it,
 * and a second table prints the drift — what differs between the pinned and the latest peer runs.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { compareObservations, verdictLine } from "./compare.js";
import type { PeerCommand } from "./run-claude.js";
import type { CompatCase, Observation } from "./types.js";

const INSTALLER = fileURLToPath(new URL("../scripts/install-peer.mjs", import.meta.url));

/** One differential table: who the peer is and how a case runs on each side. */
export interface CompatTable {
  /** scripts/install-peer.mjs's name for the peer, and how the table names it. */
  peer: "claude" | "reasonix" | "qwen" | "gemini";
  title: string;
  cases: readonly CompatCase[];
  runPeer(c: CompatCase, peer: PeerCommand): Promise<Observation>;
  runKeel(c: CompatCase): Promise<Observation>;
  /**
   * "hooks": only model-visible text that hooks caused is compared (tools word output apart);
   * "plain": every item as the runners gave it (they already reduced tool output to outcomes).
   */
  modelView?: "all" | "hooks" | "plain";
  /** Nested payload fields whose text is each agent's own (compared by presence and type). */
  opaqueNested?: Readonly<Record<string, string>>;
  /** Compare which message carries each text (compare.ts `channels`), not only the words. */
  channels?: boolean;
  /** Variables the peer sets for hooks that Keel deliberately does not, with the reason. */
  deliberateEnv?: Readonly<Record<string, string>>;
  /** Cases run at once (each run mostly waits on child processes). */
  concurrency?: number;
  /** Lines printed after the table (e.g. fields never compared and why). */
  footer?: string[];
}

/** Runs the table from the command line and sets the exit status: 0 when nothing differs. */
export function runCompatTable(table: CompatTable): void {
  main(table, process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(
        `compat:${table.peer}: ${err instanceof Error ? err.stack : String(err)}\n`,
      );
      process.exitCode = 2;
    },
  );
}

async function main(table: CompatTable, argv: string[]): Promise<number> {
  const flag = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const dump = flag("--dump");
  const only = flag("--only") ?? dump;
  const latest = argv.includes("--latest");
  const started = Date.now();
  const pinned = installPeer(table.peer);
  const peer = latest ? installPeer(table.peer, "latest") : pinned;
  const cases = table.cases.filter((c) => only === undefined || c.name.includes(only));
  process.stdout.write(`${table.title} ${peer.version} vs Keel, ${cases.length} cases\n\n`);
  const compareOpts = {
    modelView: table.modelView ?? "all",
    ...(table.opaqueNested ? { opaqueNested: table.opaqueNested } : {}),
    ...(table.deliberateEnv ? { ignoreEnv: Object.keys(table.deliberateEnv) } : {}),
    ...(table.channels ? { channels: true } : {}),
  };
  const results = await mapLimit(cases, table.concurrency ?? 1, async (c) => {
    const [ref, keel, old] = await Promise.all([
      table.runPeer(c, peer),
      table.runKeel(c),
      latest && pinned.version !== peer.version ? table.runPeer(c, pinned) : undefined,
    ]);
    const diffs = compareObservations(ref, keel, compareOpts);
    // Drift: the pinned peer as the reference, the latest as the one compared (env both ways).
    const drift = old ? compareObservations(old, ref, compareOpts) : [];
    return { c, ref, keel, diffs, drift };
  });
  const width = Math.max(...cases.map((c) => c.name.length));
  let differing = 0;
  let deliberate = 0;
  for (const { c, ref, keel, diffs } of results) {
    const line = verdictLine(c, diffs);
    if (line.startsWith("differs")) differing++;
    if (line.startsWith("deliberate")) deliberate++;
    process.stdout.write(`${c.name.padEnd(width)}  ${line}\n`);
    if (dump !== undefined) {
      process.stdout.write(`--- ${table.peer}\n${JSON.stringify(ref, null, 1)}\n`);
      process.stdout.write(`--- keel\n${JSON.stringify(keel, null, 1)}\n`);
    }
  }
  if (latest && pinned.version !== peer.version) printDrift(results, width, pinned, peer);
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  const footer = [
    ...(table.footer ?? []),
    ...Object.entries(table.deliberateEnv ?? {}).map(([k, why]) => `Never compared: ${k} (${why})`),
  ];
  if (footer.length) process.stdout.write(`\n${footer.join("\n")}\n`);
  process.stdout.write(
    `\n${cases.length - differing - deliberate} same, ${deliberate} deliberate, ${differing} differ (${table.title} ${peer.version}, ${secs} s)\n`,
  );
  return differing === 0 ? 0 : 1;
}

/** Installs (or finds in the cache) the peer at its pinned version, or the registry's latest. */
function installPeer(
  name: CompatTable["peer"],
  version?: "latest",
): PeerCommand & { version: string } {
  const args = [INSTALLER, name, "--json", ...(version ? ["--version", version] : [])];
  return JSON.parse(
    execFileSync(process.execPath, args, {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }),
  ) as PeerCommand & { version: string };
}

/** The peer against itself: what the new release changed that hooks or the model observe. */
function printDrift(
  results: readonly { c: CompatCase; drift: string[] }[],
  width: number,
  pinned: { version: string },
  latest: { version: string },
): void {
  process.stdout.write(
    `\nDrift: ${pinned.version} → ${latest.version} (the peer against itself)\n\n`,
  );
  let moved = 0;
  for (const { c, drift } of results) {
    if (drift.length > 0) moved++;
    const line = drift.length === 0 ? "unchanged" : `changed: ${drift.join("; ")}`;
    process.stdout.write(`${c.name.padEnd(width)}  ${line}\n`);
  }
  process.stdout.write(`\n${moved}/${results.length} cases changed between the two releases\n`);
}

async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
