/**
 * Planning a firing: which hooks run (event, matcher, `if`, active, trusted) with identical
 * handlers deduplicated. Pure over a prepared snapshot, so nothing is spawned for a hook
 * whose matcher or condition does not match.
 */
import { handlerIdentity, handlerLabel } from "./config/definition.js";
import { DIALECTS } from "./dialects/index.js";
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
  if (spec.matcherField !== null && (spec.toolEvent || dialect.matchesNonToolEvents)) {
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

/** Whether a prepared hook applies to this payload (matcher and `if`; not trust). */
export function hookMatches(
  h: PreparedHook,
  payload: AnyEventPayload,
  projectDir: string,
): boolean {
  const spec = EVENT_SPECS[payload.hook_event_name];
  const p: Record<string, unknown> = { ...payload };
  const keelTool = typeof p.tool_name === "string" ? p.tool_name : "";
  if (h.matcher) {
    if (spec.matcherField === "tool_name") {
      const own = h.dialect.toolName(keelTool);
      // Every dialect but Claude's (PascalCase names, unanchored regexes) also matches Keel's name.
      const hit =
        h.matcher.test(own) ||
        (h.dialect.name !== "claude" && own !== keelTool && h.matcher.test(keelTool));
      if (!hit) return false;
    } else if (spec.matcherField !== null) {
      const value = p[spec.matcherField];
      if (!h.matcher.test(typeof value === "string" ? value : "")) return false;
    }
  }
  if (h.condition) {
    if (h.condition.tool !== keelTool) return false;
    const input: ToolInput = isRecord(p.tool_input) ? p.tool_input : {};
    if (!h.condition.test(input, projectDir)) return false;
  }
  return true;
}

/** The hooks to run for one firing: active, trusted, matching, identical handlers once. */
export function planFiring(
  candidates: readonly PreparedHook[],
  payload: AnyEventPayload,
  projectDir: string,
): PreparedHook[] {
  const seen = new Set<string>();
  const out: PreparedHook[] = [];
  for (const h of candidates) {
    if (!h.def.active || !h.def.trusted) continue;
    if (!hookMatches(h, payload, projectDir)) continue;
    if (seen.has(h.identity)) continue;
    seen.add(h.identity);
    out.push(h);
  }
  return out;
}
