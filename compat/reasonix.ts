/**
 * `npm run compat:reasonix`: the differential test against the real Reasonix 1.x (Go).
 * Installs it into the peer cache, runs every case of reasonix-cases.ts through it and through
 * Keel (the same `.reasonix/settings.json`), prints one line per case. `--only <text>` and
 * `--dump <text>` as in compat:claude.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { compareObservations, verdictLine } from "./compare.js";
import { REASONIX_CASES } from "./reasonix-cases.js";
import type { PeerCommand } from "./run-claude.js";
import { runKeelCase } from "./run-keel.js";
import { runReasonixCase } from "./run-reasonix.js";

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
    execFileSync(process.execPath, [INSTALLER, "reasonix", "--json"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }),
  ) as PeerCommand & { version: string };
  const cases = REASONIX_CASES.filter((c) => only === undefined || c.name.includes(only));
  process.stdout.write(`Reasonix ${peer.version} vs Keel, ${cases.length} cases\n\n`);
  const width = Math.max(...cases.map((c) => c.name.length));
  let differing = 0;
  for (const c of cases) {
    const [ref, keel] = await Promise.all([runReasonixCase(c, peer), runKeelCase(c, "reasonix")]);
    // Each agent words its own tools' output; only what hooks caused is compared.
    const diffs = compareObservations(ref, keel, { modelView: "hooks" });
    const line = verdictLine(c, diffs);
    if (line.startsWith("differs")) differing++;
    process.stdout.write(`${c.name.padEnd(width)}  ${line}\n`);
    if (dump !== undefined) {
      process.stdout.write(`--- reasonix\n${JSON.stringify(ref, null, 1)}\n`);
      process.stdout.write(`--- keel\n${JSON.stringify(keel, null, 1)}\n`);
    }
  }
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    `\n${cases.length - differing}/${cases.length} same or deliberate, ${differing} differ (${secs} s)\n`,
  );
  return differing === 0 ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`compat:reasonix: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exitCode = 2;
  },
);
