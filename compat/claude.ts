/**
 * `npm run compat:claude`: the differential test against the real Claude Code. Installs it into
 * the peer cache, runs every case of cases.ts through it and through Keel, prints one line per
 * case (`same` / `differs: …`). `--dump <text>` prints both raw observations of the matching
 * cases; `--only <text>` runs only the cases whose name contains the text.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { CASES } from "./cases.js";
import { compareObservations, DELIBERATE_FIELDS, verdictLine } from "./compare.js";
import { type PeerCommand, runClaudeCase } from "./run-claude.js";
import { runKeelCase } from "./run-keel.js";

const INSTALLER = fileURLToPath(new URL("../scripts/install-peer.mjs", import.meta.url));

async function main(argv: string[]): Promise<number> {
  const flag = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const dump = flag("--dump");
  const only = flag("--only") ?? dump;
  const started = Date.now();
  const peer = JSON.parse(
    execFileSync(process.execPath, [INSTALLER, "claude", "--json"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }),
  ) as PeerCommand & { version: string };
  const cases = CASES.filter((c) => only === undefined || c.name.includes(only));
  process.stdout.write(`Claude Code ${peer.version} vs Keel, ${cases.length} cases\n\n`);
  let differing = 0;
  // Two cases at a time: each run is mostly waiting on child processes.
  const results = await mapLimit(cases, 2, async (c) => {
    const [ref, keel] = await Promise.all([runClaudeCase(c, peer), runKeelCase(c)]);
    return { c, ref, keel, diffs: compareObservations(ref, keel) };
  });
  const width = Math.max(...cases.map((c) => c.name.length));
  for (const { c, ref, keel, diffs } of results) {
    const line = verdictLine(c, diffs);
    if (line.startsWith("differs")) differing++;
    process.stdout.write(`${c.name.padEnd(width)}  ${line}\n`);
    if (dump !== undefined) {
      process.stdout.write(`--- claude\n${JSON.stringify(ref, null, 1)}\n`);
      process.stdout.write(`--- keel\n${JSON.stringify(keel, null, 1)}\n`);
    }
  }
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write("\nNever compared (Keel deliberately does not send them):\n");
  for (const [field, why] of Object.entries(DELIBERATE_FIELDS)) {
    process.stdout.write(`  payload ${field}: ${why}\n`);
  }
  process.stdout.write(
    `\n${cases.length - differing}/${cases.length} same or deliberate, ${differing} differ (${secs} s)\n`,
  );
  return differing === 0 ? 0 : 1;
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

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`compat:claude: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exitCode = 2;
  },
);
