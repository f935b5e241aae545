/**
 * Comparing two observations of one case: values that legitimately differ between runs (ids,
 * temp paths, durations) are normalized; everything a hook or the model could observe is
 * compared and each difference becomes one short phrase.
 */
import { hookParagraphs, splitItem } from "./model-view.js";
import type { CompatCase, HookRecord, Observation } from "./types.js";

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TOOL_ID = /\b(toolu_[A-Za-z0-9]+|call_[A-Za-z0-9_]+)\b/g;

/** Payload fields whose value is per-run: only their presence and type are compared. */
const OPAQUE_FIELDS: Record<string, string> = {
  session_id: "<session>",
  transcript_path: "<transcript>",
  prompt_id: "<prompt_id>",
  tool_use_id: "<tool_use_id>",
  duration_ms: "<ms>",
  // Each agent's own configured model (Codex's gpt-5.5, Keel's deepseek-v4-flash): compared by
  // presence, which is what a hook can rely on.
  model: "<model>",
  sessionId: "<session>",
  timestamp: "<time>",
  // Qwen Code's Stop: the share of the context window the last request filled, in each agent's
  // own tokens (its system prompt and tools differ); context_limit is compared as is.
  context_usage: "<share>",
  input_tokens: "<tokens>",
};

/**
 * Payload fields Keel deliberately does not send, with the reason (docs/hooks.md "Where Keel
 * deliberately differs"); left out of every comparison and listed once under the table.
 */
export const DELIBERATE_FIELDS: Readonly<Record<string, string>> = {};

/**
 * `effort.level` is the level the model applies, and the models differ (Claude's default model
 * runs at medium; DeepSeek V4 takes high or max): compared by presence, per event.
 */
const EFFORT_STAND_IN = { level: "<level>" };

/** Env variables whose value is per-run. */
const OPAQUE_ENV: Record<string, string> = {
  CLAUDE_ENV_FILE: "<file>",
  CLAUDE_CODE_SESSION_ID: "<session>",
  CLAUDE_EFFORT: "<level>",
  // Each agent's own per-project runtime folder, where its transcripts live (Qwen:
  // ~/.qwen/projects/<project>; Keel: $KEEL_HOME/sessions/<project>).
  QWEN_CODE_PROJECT_DIR: "<runtime dir>",
};

/** Replaces run-specific text: the temp paths, uuids, tool ids, Keel session ids. */
export function normalizeText(text: string, paths: Observation["paths"]): string {
  return text
    .replaceAll(paths.project, "$PROJECT")
    .replaceAll(paths.home, "$HOME")
    .replaceAll(paths.root, "$ROOT")
    .replace(UUID, "<uuid>")
    .replace(TOOL_ID, "<tool_use_id>");
}

/**
 * A payload with opaque fields replaced and strings normalized. `opaqueNested` names fields,
 * at any depth, whose string value is each agent's own (Qwen's `tool_response.llmContent`).
 */
export function normalizePayload(
  payload: Record<string, unknown>,
  paths: Observation["paths"],
  opaqueNested: Readonly<Record<string, string>> = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(payload)) {
    if (key in DELIBERATE_FIELDS) continue;
    if (key === "effort" && isObject(value) && typeof value.level === "string") {
      out[key] = EFFORT_STAND_IN;
      continue;
    }
    const opaque = OPAQUE_FIELDS[key];
    if (opaque !== undefined && (typeof value === "string" || typeof value === "number")) {
      out[key] = opaque;
    } else {
      out[key] = normalizeValue(value, paths, opaqueNested);
    }
  }
  return out;
}

function normalizeValue(
  value: unknown,
  paths: Observation["paths"],
  opaque: Readonly<Record<string, string>>,
): unknown {
  if (typeof value === "string") return normalizeText(value, paths);
  if (Array.isArray(value)) return value.map((v) => normalizeValue(v, paths, opaque));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const stand = opaque[k];
      out[k] =
        stand !== undefined && typeof v === "string" ? stand : normalizeValue(v, paths, opaque);
    }
    return out;
  }
  return value;
}

function normalizeEnv(env: Record<string, string>, paths: Observation["paths"]) {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) out[k] = OPAQUE_ENV[k] ?? normalizeText(v, paths);
  return out;
}

/** Differences between two JSON values as `path: a ≠ b` phrases (a = reference, b = Keel). */
export function diffValues(a: unknown, b: unknown, path = ""): string[] {
  if (isObject(a) && isObject(b)) {
    const out: string[] = [];
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const p = path ? `${path}.${key}` : key;
      if (!(key in b)) out.push(`${p} missing`);
      else if (!(key in a)) out.push(`${p} extra`);
      else out.push(...diffValues(a[key], b[key], p));
    }
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    return a.flatMap((v, i) => diffValues(v, b[i], `${path}[${i}]`));
  }
  if (JSON.stringify(a) === JSON.stringify(b)) return [];
  return [`${path || "value"}: ${short(a)} ≠ ${short(b)}`];
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A value shown in one line, cut at 80 characters. */
export function short(v: unknown): string {
  const s = v === undefined ? "undefined" : JSON.stringify(v);
  return s.length > 80 ? `${s.slice(0, 77)}…` : s;
}

/** Labels records `id`, `id#2`, … so repeated firings of one hook line up. */
function labelled(records: readonly HookRecord[]): Map<string, HookRecord> {
  const seen = new Map<string, number>();
  const out = new Map<string, HookRecord>();
  for (const r of records) {
    const n = (seen.get(r.id) ?? 0) + 1;
    seen.set(r.id, n);
    out.set(n === 1 ? r.id : `${r.id}#${n}`, r);
  }
  return out;
}

/** Every observable difference between the reference agent's run and Keel's. */
export function compareObservations(
  ref: Observation,
  keel: Observation,
  opts: {
    modelView?: "all" | "hooks" | "plain";
    /** Nested payload fields compared by presence and type only (see normalizePayload). */
    opaqueNested?: Readonly<Record<string, string>>;
    /** Variables the peer sets that Keel deliberately does not (listed under the table). */
    ignoreEnv?: readonly string[];
    /**
     * Compare the channel (which message carries a text), not only the words: Keel's hook
     * message is taken as the peer's system message (CHANNEL_EQUIVALENT). Without it, hook and
     * system messages count as user text (tables whose peer's channel is not compared).
     */
    channels?: boolean;
  } = {},
): string[] {
  const out: string[] = [];
  if (ref.exitCode !== keel.exitCode) out.push(`exit status ${ref.exitCode} ≠ ${keel.exitCode}`);
  const refResult = normalizeText(ref.result, ref.paths);
  const keelResult = normalizeText(keel.result, keel.paths);
  if (refResult !== keelResult) out.push(`result ${short(refResult)} ≠ ${short(keelResult)}`);

  const a = labelled(ref.hooks);
  const b = labelled(keel.hooks);
  // Hooks of one event run in parallel in both agents: compare which fired, and the order of
  // the events, not the order of hooks within one event.
  const fired = (m: Map<string, HookRecord>) => [...m.keys()].sort().join(",");
  if (fired(a) !== fired(b)) out.push(`hooks fired [${fired(a)}] ≠ [${fired(b)}]`);
  const events = (m: Map<string, HookRecord>) =>
    [...m.values()]
      .map((r) => String(r.payload.hook_event_name))
      .filter((e, i, all) => e !== all[i - 1])
      .join(",");
  if (fired(a) === fired(b) && events(a) !== events(b)) {
    out.push(`event order [${events(a)}] ≠ [${events(b)}]`);
  }
  for (const [label, ra] of a) {
    const rb = b.get(label);
    if (!rb) continue;
    for (const d of diffValues(
      normalizePayload(ra.payload, ref.paths, opts.opaqueNested),
      normalizePayload(rb.payload, keel.paths, opts.opaqueNested),
    )) {
      out.push(`${label} payload ${d}`);
    }
    for (const d of diffValues(normalizeEnv(ra.env, ref.paths), normalizeEnv(rb.env, keel.paths))) {
      // Keel gives every dialect's hooks its own variables too (KEEL_*, CLAUDE_PROJECT_DIR):
      // an extra variable breaks no hook, a missing or different one can.
      const name = d.split(/[ :]/)[0] ?? "";
      if (!d.endsWith(" extra") && !opts.ignoreEnv?.includes(name)) out.push(`${label} env ${d}`);
    }
  }

  const views = Math.max(ref.modelView.length, keel.modelView.length);
  if (ref.modelView.length !== keel.modelView.length) {
    out.push(`model requests ${ref.modelView.length} ≠ ${keel.modelView.length}`);
  }
  // The first request also carries each agent's own system text; compare only what follows
  // from the hooks and the prompt there, and everything in later requests.
  for (let i = 0; i < views; i++) {
    // Trailing whitespace is invisible to the model (Claude keeps stderr's last newline).
    const va = (ref.modelView[i] ?? []).map((t) => normalizeText(t, ref.paths).trimEnd());
    const vb = (keel.modelView[i] ?? []).map((t) =>
      claudeToolNames(normalizeText(t, keel.paths)).trimEnd(),
    );
    const keep = (items: string[]) =>
      opts.modelView === "hooks" ? items.filter((t) => /\bhook\b/i.test(t)) : items;
    // "plain": the runner already put both views in one form; every item counts.
    const ka = opts.modelView === "plain" ? va : keep(hookView(va, i === 0));
    const kb = opts.modelView === "plain" ? vb : keep(hookView(vb, i === 0));
    const fa = opts.channels === true ? ka : ka.map(oneTextChannel);
    const fb = opts.channels === true ? keelChannels(kb, ka) : kb.map(oneTextChannel);
    if (JSON.stringify(fa) !== JSON.stringify(fb)) {
      // The same words in the same order, carried by other messages: a channel difference.
      const words = (items: string[]) => JSON.stringify(items.map((t) => splitItem(t).text));
      const where = words(fa) === words(fb) ? " in another channel" : "";
      out.push(`model saw (request ${i + 1})${where} ${short(fa)} ≠ ${short(fb)}`);
    }
  }
  for (const d of diffValues(ref.files, keel.files)) out.push(`file ${d}`);
  return out;
}

/**
 * The one channel Keel deliberately uses instead of the peer's: a `user` message made only of
 * `<hook-context>` blocks where Claude Code 2.1.332 sends a `system` message (docs/hooks.md
 * "Where results go": DeepSeek's chat template moves every system message to the front).
 */
export const CHANNEL_EQUIVALENT = {
  keel: "hook",
  peer: "system",
  why: "Keel's hook context goes in a user message of its own (only <hook-context> blocks) where Claude Code sends a system message: DeepSeek's chat template moves every system message to the front of the prompt",
} as const;

/**
 * Keel's items with its hook message compared like with like: as the peer's system message where
 * the peer's item at that place is one (CHANNEL_EQUIVALENT), otherwise as what it is — a user
 * message made only of hook output, which the peer's Stop feedback also is (model-view.ts).
 */
function keelChannels(keel: readonly string[], peer: readonly string[]): string[] {
  return keel.map((item, j) => {
    const { channel, text } = splitItem(item);
    if (channel !== CHANNEL_EQUIVALENT.keel) return item;
    const theirs = splitItem(peer[j] ?? "").channel;
    return theirs === CHANNEL_EQUIVALENT.peer ? `${CHANNEL_EQUIVALENT.peer}: ${text}` : item;
  });
}

/** Channels set aside (tables that compare words only): hook and system text count as user text. */
function oneTextChannel(item: string): string {
  const { channel, text } = splitItem(item);
  return channel === "hook" || channel === "system" ? `text: ${text}` : item;
}

/**
 * Tool results as they are; other text reduced to its hook paragraphs when it has some (each
 * keeping its channel). In the first request, text without hook paragraphs (each agent's own
 * context, the prompt) is dropped.
 */
function hookView(items: readonly string[], first: boolean): string[] {
  return items.flatMap((item) => {
    const { channel, text } = splitItem(item);
    if (channel === "tool_result") return [item];
    const paras = hookParagraphs(text);
    if (paras.length > 0) return paras.map((p) => `${channel}: ${p}`);
    return first ? [] : [item];
  });
}

const MODEL_TOOL_NAMES: Readonly<Record<string, string>> = {
  shell: "Bash",
  write_file: "Write",
  read_file: "Read",
  edit_file: "Edit",
};

/** Keel's model knows its tools by Keel's names; hook texts name them (`PreToolUse:shell hook …`). */
function claudeToolNames(text: string): string {
  return text.replace(
    /\b(PreToolUse|PostToolUse|PostToolUseFailure):(shell|write_file|read_file|edit_file) hook/g,
    (_m, event: string, tool: string) => `${event}:${MODEL_TOOL_NAMES[tool]} hook`,
  );
}

/** `same`, `deliberate (why): …` when every difference is one the case allows, else `differs: …`. */
export function verdictLine(c: CompatCase, diffs: readonly string[]): string {
  if (diffs.length === 0) return "same";
  const allowed = (d: string) => c.deliberate?.allows.some((a) => d.startsWith(a)) === true;
  const unexpected = diffs.filter((d) => !allowed(d));
  if (unexpected.length === 0) return `deliberate (${c.deliberate?.why}): ${diffs.join("; ")}`;
  return `differs: ${unexpected.join("; ")}`;
}
