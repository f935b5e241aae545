/**
 * Planning a firing: which hooks run (event, matcher, `if`, active, trusted) with identical
 * handlers deduplicated. Pure over a prepared snapshot, so nothing is spawned for a hook
 * whose matcher or condition does not match.
 */
import { handlerIdentity, handlerLabel } from "./config/definition.js";
import { DIALECTS, matcherApplies } from "./dialects/index.js";
import type { Dialect } from "./dialects/types.js";
import { type AnyEventPayload, EVENT_SPECS, type HookEventName, type ToolInput } from "./events.js";
import { type CompiledMatcher, type Condition, compileMatcher, parseCondition } from "./match.js";
import type { HookDefinition } from "./types.js";
import { isRecord } from "./util.js";

/** A definition with its matcher and condition compiled. */
export interface PreparedHook {
  def: HookDefinition;
  dialect: Dialect;
  /** Null: matches everything (or the matcher does not apply to this event/dialect). */
  matcher: Extract<CompiledMatcher, { ok: true }> | null;
  condition: Condition | null;
  identity: string;
  label: string;
}

/** Compiles one definition (inactive ones are kept, but never planned). */
export function prepareHook(def: HookDefinition): PreparedHook {
  const dialect = DIALECTS[def.source.dialect];
  const spec = EVENT_SPECS[def.event];
  let matcher: PreparedHook["matcher"] = null;
  if (matcherApplies(dialect, def.event)) {
    const m = compileMatcher(dialect.matcherStyle, def.matcher, spec.matchMode);
    if (m.ok && !m.matchesAll) matcher = m;
  }
  let condition: Condition | null = null;
  if (def.handler.if !== undefined && spec.toolEvent) {
    const c = parseCondition(def.handler.if);
    if (c.ok) condition = c.condition;
  }
  return {
    def,
    dialect,
    matcher,
    condition,
    identity: handlerIdentity(def.handler),
    label: handlerLabel(def.handler),
  };
}

/** Groups prepared hooks by event, in configuration order. */
export function indexByEvent(hooks: readonly PreparedHook[]): Map<HookEventName, PreparedHook[]> {
  const out = new Map<HookEventName, PreparedHook[]>();
  for (const h of [...hooks].sort((a, b) => a.def.order - b.def.order)) {
    const list = out.get(h.def.event);
    if (list) list.push(h);
    else out.set(h.def.event, [h]);
  }
  return out;
}

const ALL_DIALECTS = Object.values(DIALECTS);

/**
 * The names a tool matcher is tested against. A hook's own dialect name first; every dialect
 * but Claude's (PascalCase names, unanchored regexes) also matches Keel's name; and native
 * (keel) matchers accept any dialect's name, so seed-004's `matcher: "Write"` works in a
 * Keel file just as `if: "Write(...)"` does.
 */
function toolNames(dialect: Dialect, keelTool: string): string[] {
  const key = `${dialect.name}\0${keelTool}`;
  let names = NAME_CACHE.get(key);
  if (!names) {
    const own = dialect.toolName(keelTool);
    if (dialect.name === "keel")
      names = [...new Set(ALL_DIALECTS.map((d) => d.toolName(keelTool)))];
    else names = dialect.name === "claude" || own === keelTool ? [own] : [own, keelTool];
    if (NAME_CACHE.size > 10_000) NAME_CACHE.clear();
    NAME_CACHE.set(key, names);
  }
  return names;
}
const NAME_CACHE = new Map<string, string[]>();

/** The payload fields matching reads, extracted once per firing. */
interface MatchView {
  event: HookEventName;
  fields: Record<string, unknown>;
  keelTool: string;
  input: ToolInput;
  projectDir: string;
}

function viewOf(payload: AnyEventPayload, projectDir: string): MatchView {
  const fields: Record<string, unknown> = { ...payload };
  return {
    event: payload.hook_event_name,
    fields,
    keelTool: typeof fields.tool_name === "string" ? fields.tool_name : "",
    input: isRecord(fields.tool_input) ? fields.tool_input : {},
    projectDir,
  };
}

function matchesView(h: PreparedHook, v: MatchView): boolean {
  const spec = EVENT_SPECS[v.event];
  if (h.matcher) {
    if (spec.matcherField === "tool_name") {
      if (!toolNames(h.dialect, v.keelTool).some((name) => h.matcher?.test(name))) return false;
    } else if (spec.matcherField !== null) {
      const value = v.fields[spec.matcherField];
      if (!h.matcher.test(typeof value === "string" ? value : "")) return false;
    }
  }
  if (h.condition) {
    if (h.condition.tool !== v.keelTool) return false;
    if (!h.condition.test(v.input, v.projectDir)) return false;
  }
  return true;
}

/** Whether a prepared hook applies to this payload (matcher and `if`; not trust). */
export function hookMatches(
  h: PreparedHook,
  payload: AnyEventPayload,
  projectDir: string,
): boolean {
  return matchesView(h, viewOf(payload, projectDir));
}

/** The hooks to run for one firing: active, trusted, matching, identical handlers once. */
export function planFiring(
  candidates: readonly PreparedHook[],
  payload: AnyEventPayload,
  projectDir: string,
): PreparedHook[] {
  const view = viewOf(payload, projectDir);
  const seen = new Set<string>();
  const out: PreparedHook[] = [];
  for (const h of candidates) {
    if (!h.def.active || !h.def.trusted) continue;
    if (!matchesView(h, view)) continue;
    if (seen.has(h.identity)) continue;
    seen.add(h.identity);
    out.push(h);
  }
  return out;
}
