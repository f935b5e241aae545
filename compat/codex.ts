/**
 * `npm run compat:codex`: the differential test against the real Codex CLI. Installs
 * `@openai/codex` into the peer cache (scripts/install-peer.mjs; `--latest` takes the
 * registry's current release instead of the pinned one), runs every case of codex-cases.ts
 * through `codex exec` and through Keel with the same `.codex/hooks.json`, and compares what
 * the hooks observed point by point: the order of firings, each payload (fields and values,
 * run-specific text normalized), the project files afterwards (what a block prevented) and the
 * final answer. Prints each point that is not the same and the totals as
 * "N same, M deliberate, K differ"; exit status 1 when K > 0. `--only <text>` runs matching
 * cases, `--dump` prints both raw observations.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { CODEX_CASES, CODEX_DELIBERATE, type CodexCase } from "./codex-cases.js";
import { diffValues, normalizePayload, normalizeText } from "./compare.js";
import type { PeerCommand } from "./run-claude.js";
import { type CodexObservation, runCodexCase, runKeelCodexCase } from "./run-codex.js";
import type { HookRecord } from "./types.js";

const INSTALLER = fileURLToPath(new URL("../scripts/install-peer.mjs", import.meta.url));

/** One compared point: same, deliberately different (why), or different (how). */
export interface Point {
  what: string;
  verdict: "same" | "deliberate" | "differs";
  detail?: string;
}

/** Payload fields whose value is each agent's own; compared by presence and type only. */
const OPAQUE = new Set(["session_id", "turn_id", "tool_use_id", "transcript_path"]);

function shapeOf(payload: Record<string, unknown>, paths: CodexObservation["paths"]) {
  const out = normalizePayload(payload, paths);
  for (const key of OPAQUE) if (key in out) out[key] = `<${typeof payload[key]}>`;
  return out;
}

/**
 * Records in firing order: the hooks of one firing (same event, same tool call) run at the
 * same time in both agents, so their start order is a race; within a firing they are sorted
 * by id.
 */
export function inFiringOrder(records: readonly HookRecord[]): HookRecord[] {
  const out: HookRecord[] = [];
  let firing: HookRecord[] = [];
  const key = (r: HookRecord) =>
    `${String(r.payload.hook_event_name)}\0${String(r.payload.tool_use_id)}`;
  for (const r of records) {
    const first = firing[0];
    if (first && key(first) !== key(r)) {
      out.push(...firing.sort((a, b) => a.id.localeCompare(b.id)));
      firing = [];
    }
    firing.push(r);
  }
  out.push(...firing.sort((a, b) => a.id.localeCompare(b.id)));
  return out;
}

/** The points of one case. */
export function comparePoints(
  c: CodexCase,
  peer: CodexObservation,
  keel: CodexObservation,
): Point[] {
  const deliberate = { ...CODEX_DELIBERATE, ...(c.deliberate ?? {}) };
  const points: Point[] = [];
  const judge = (what: string, diffs: string[]) => {
    if (diffs.length === 0) return points.push({ what, verdict: "same" });
    const unexplained = diffs.filter((d) => !Object.keys(deliberate).some((k) => d.startsWith(k)));
    if (unexplained.length === 0) {
      const why = Object.entries(deliberate)
        .filter(([k]) => diffs.some((d) => d.startsWith(k)))
        .map(([, v]) => v);
      return points.push({
        what,
        verdict: "deliberate",
        detail: `${diffs.join("; ")} (${why.join("; ")})`,
      });
    }
    return points.push({ what, verdict: "differs", detail: diffs.join("; ") });
  };
  const order = (o: CodexObservation) =>
    inFiringOrder(o.hooks).map((h) => `${h.id}:${String(h.payload.hook_event_name)}`);
  judge("order of firings", diffValues(order(peer), order(keel), "order"));
  const peerHooks = inFiringOrder(peer.hooks);
  const keelHooks = inFiringOrder(keel.hooks);
  const n = Math.max(peerHooks.length, keelHooks.length);
  for (let i = 0; i < n; i++) {
    const a = peerHooks[i];
    const b = keelHooks[i];
    const label = `firing ${i + 1} (${a?.id ?? b?.id}:${String((a ?? b)?.payload.hook_event_name)})`;
    if (!a || !b) {
      judge(label, [`${a ? "only Codex" : "only Keel"} fired it`]);
      continue;
    }
    const pa = shapeOf(a.payload, peer.paths);
    const pb = shapeOf(b.payload, keel.paths);
    judge(`${label} payload`, diffValues(pa, pb, "payload"));
  }
  const norm = (o: CodexObservation) =>
    Object.fromEntries(Object.entries(o.files).map(([k, v]) => [k, normalizeText(v, o.paths)]));
  judge("project files afterwards", diffValues(norm(peer), norm(keel), "files"));
  judge("final answer", diffValues(peer.result, keel.result, "result"));
  return points;
}

function install(latest: boolean): PeerCommand & { version: string } {
  // The registry's current release by number, so each release gets its own cache folder.
  const current = latest
    ? execFileSync("npm", ["view", "@openai/codex", "version"], { encoding: "utf8" }).trim()
    : undefined;
  const args = [INSTALLER, "codex", "--json", ...(current ? ["--version", current] : [])];
  return JSON.parse(execFileSync(process.execPath, args, { encoding: "utf8" }));
}

async function main(argv: string[]): Promise<number> {
  const only = argv.includes("--only") ? argv[argv.indexOf("--only") + 1] : undefined;
  const dump = argv.includes("--dump");
  const peer = install(argv.includes("--latest"));
  console.log(`Codex ${peer.version} vs Keel (.codex/hooks.json, scripted model session)\n`);
  const totals = { same: 0, deliberate: 0, differs: 0 };
  for (const c of CODEX_CASES) {
    if (only && !c.name.includes(only)) continue;
    const [a, b] = await Promise.all([runCodexCase(c, peer), runKeelCodexCase(c)]);
    if (dump) console.log(JSON.stringify({ codex: a, keel: b }, null, 2));
    const points = comparePoints(c, a, b);
    const count = (v: Point["verdict"]) => points.filter((p) => p.verdict === v).length;
    console.log(
      `${c.name}: ${count("same")} same, ${count("deliberate")} deliberate, ${count("differs")} differ`,
    );
    for (const p of points) {
      if (p.verdict !== "same") console.log(`  ${p.verdict}: ${p.what}: ${p.detail ?? ""}`);
      totals[p.verdict === "differs" ? "differs" : p.verdict]++;
    }
    for (const note of [...a.notes.map((x) => `codex ${x}`), ...b.notes.map((x) => `keel ${x}`)]) {
      console.log(`  note: ${note}`);
    }
  }
  console.log(`\n${totals.same} same, ${totals.deliberate} deliberate, ${totals.differs} differ`);
  return totals.differs > 0 ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : String(err));
      process.exitCode = 2;
    },
  );
}
