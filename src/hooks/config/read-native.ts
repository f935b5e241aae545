/**
 * The native reader for JSON hook files (keel, claude, tutorial): Claude Code's nested form,
 * the flat Reasonix-like form, and seed-004's array of `{event, mode, condition, ...}`.
 */
import { isRecord } from "../../base/index.js";
import { HOOK_EVENTS, type HookEventName, isHookEventName } from "../events.js";
import type { HookProblem } from "../types.js";
import { type RawHook, type ReadContext, toHandlerConfig, zodProblems } from "./handler.js";
import type { FieldPath } from "./positions.js";
import { flatEntrySchema, groupSchema, handlerInputSchema } from "./schema.js";
import {
  GROUP_FIELDS,
  HANDLER_FIELDS,
  nearestField,
  unknownFieldWarnings,
} from "./unknown-fields.js";

/** Result of reading the `hooks` value of one file. */
export interface ReadResult {
  hooks: RawHook[];
  problems: HookProblem[];
}

/** Timeouts this large in a seconds field were almost certainly meant as milliseconds. */
const SUSPICIOUS_TIMEOUT_SEC = 1000;
/** Timeouts this small in a milliseconds field (Gemini CLI, Qwen Code) were almost certainly
 *  meant as seconds. */
const SUSPICIOUS_TIMEOUT_MS = 100;

/** The matcher of an entry and where it is written (`matcher` wins over Reasonix's `match`). */
function matcherOf(
  entry: { matcher?: string | undefined; match?: string | undefined },
  at: FieldPath,
): { matcher: string | undefined; matcherAt?: FieldPath } {
  if (entry.matcher !== undefined) return { matcher: entry.matcher, matcherAt: [...at, "matcher"] };
  if (entry.match !== undefined) return { matcher: entry.match, matcherAt: [...at, "match"] };
  return { matcher: undefined };
}

function handlerAt(
  value: unknown,
  event: RawHook["event"],
  where: { matcher: string | undefined; matcherAt?: FieldPath },
  at: FieldPath,
  ctx: ReadContext,
  out: ReadResult,
): void {
  const parsed = handlerInputSchema().safeParse(value);
  if (!parsed.success) {
    out.problems.push(...zodProblems(ctx, at, parsed.error));
    return;
  }
  const { handler, problems } = toHandlerConfig(parsed.data, ctx, at);
  // A flat entry's own matcher fields are read by entryAt; a nested handler has none.
  const flat = where.matcherAt !== undefined && where.matcherAt.length === at.length + 1;
  const known = flat ? [...HANDLER_FIELDS, "matcher", "match", "event"] : HANDLER_FIELDS;
  problems.push(
    ...unknownFieldWarnings(value, known, at, ctx, { matchers: "matcher", Matcher: "matcher" }),
  );
  if (!handler) {
    out.problems.push(...problems);
    return;
  }
  const unitProblem = timeoutUnitProblem(handler.timeout, ctx);
  if (unitProblem !== undefined) {
    problems.push(ctx.problem("warning", [...at, "timeout"], unitProblem));
  }
  out.hooks.push({ event, ...where, handler, at, problems });
}

/** A timeout whose size says it was written in the other unit than its file's. */
function timeoutUnitProblem(timeout: number | undefined, ctx: ReadContext): string | undefined {
  if (timeout === undefined || ctx.timeoutUnit === "s-or-ms") return undefined;
  if (ctx.timeoutUnit === "ms") {
    return timeout < SUSPICIOUS_TIMEOUT_MS
      ? `timeout ${timeout} is in milliseconds in this file; did you mean ${timeout * 1000}?`
      : undefined;
  }
  return timeout >= SUSPICIOUS_TIMEOUT_SEC
    ? `timeout ${timeout} is in seconds here; did you mean ${timeout / 1000} (milliseconds are only for .reasonix and .gemini files, and .qwen values of 1000 or more)?`
    : undefined;
}

function unknownEvent(
  ctx: ReadContext,
  at: FieldPath,
  name: string,
  eventFromName: (name: string) => HookEventName | undefined,
): HookProblem {
  // A near spelling this file's dialect reads ("PreToolUs", "PreToolUze"), if there is one.
  const near = nearestField(name, HOOK_EVENTS);
  const typo = near !== undefined && eventFromName(near) !== undefined;
  const hint = typo ? `; did you mean "${near}"?` : "";
  // Foreign files may name events their own agent has and Keel does not know yet: a warning
  // there at load, unless the name is a misspelling of one it knows.
  const p = ctx.problem(
    ctx.dialect === "keel" || typo ? "error" : "warning",
    at,
    `unknown hook event "${name}"; these hooks never run${hint}`,
  );
  p.neverRuns = true;
  return p;
}

/** Agents that discard an entry without its `hooks` list, by the dialect of their files. */
const IGNORES_FLAT_ENTRIES: Readonly<Record<string, string>> = {
  claude: "Claude Code",
  plugin: "Claude Code",
  qwen: "Qwen Code",
  gemini: "Gemini CLI",
};

function entryAt(
  entry: unknown,
  event: RawHook["event"],
  at: FieldPath,
  ctx: ReadContext,
  out: ReadResult,
): void {
  if (isRecord(entry) && "hooks" in entry) {
    const group = groupSchema().safeParse(entry);
    if (!group.success) {
      out.problems.push(...zodProblems(ctx, at, group.error));
      return;
    }
    const where = matcherOf(group.data, at);
    out.problems.push(
      ...unknownFieldWarnings(entry, GROUP_FIELDS, at, ctx, { matchers: "matcher" }),
    );
    group.data.hooks.forEach((h, i) => {
      handlerAt(h, event, where, [...at, "hooks", i], ctx, out);
    });
    return;
  }
  const flat = flatEntrySchema().safeParse(entry);
  if (!flat.success) {
    out.problems.push(...zodProblems(ctx, at, flat.error));
    return;
  }
  const agent = IGNORES_FLAT_ENTRIES[ctx.dialect];
  if (agent !== undefined) {
    out.problems.push(
      ctx.problem(
        "warning",
        at,
        `${agent} expects {"matcher": …, "hooks": [{"type": "command", …}]} here; Keel reads this flat entry, ${agent} would ignore it`,
      ),
    );
  }
  const whereFlat = matcherOf(flat.data, at);
  handlerAt(
    entry,
    event,
    { ...whereFlat, matcherAt: whereFlat.matcherAt ?? [...at, "matcher"] },
    at,
    ctx,
    out,
  );
}

/** Keel's own event names (Claude Code's too). */
export function nativeEventFromName(name: string): HookEventName | undefined {
  return isHookEventName(name) ? name : undefined;
}

/** Reads a native `hooks` value. Never throws; everything wrong becomes a located problem. */
export function readNativeHooks(
  hooks: unknown,
  ctx: ReadContext,
  eventFromName: (name: string) => HookEventName | undefined = nativeEventFromName,
): ReadResult {
  const out: ReadResult = { hooks: [], problems: [] };
  if (hooks === undefined || hooks === null) return out;
  if (Array.isArray(hooks)) {
    hooks.forEach((entry, i) => {
      const at: FieldPath = ["hooks", i];
      const event = isRecord(entry) ? entry.event : undefined;
      if (typeof event !== "string") {
        out.problems.push(
          ctx.problem("error", [...at, "event"], `hooks[${i}].event: missing event name`),
        );
      } else {
        const known = eventFromName(event);
        if (known === undefined)
          out.problems.push(unknownEvent(ctx, [...at, "event"], event, eventFromName));
        else entryAt(entry, known, at, ctx, out);
      }
    });
    return out;
  }
  if (!isRecord(hooks)) {
    out.problems.push(ctx.problem("error", ["hooks"], "hooks: expected an object keyed by event"));
    return out;
  }
  for (const [name, entries] of Object.entries(hooks)) {
    const at: FieldPath = ["hooks", name];
    const event = eventFromName(name);
    if (event === undefined) {
      out.problems.push(unknownEvent(ctx, at, name, eventFromName));
      continue;
    }
    if (!Array.isArray(entries)) {
      out.problems.push(ctx.problem("error", at, `hooks.${name}: expected an array`));
      continue;
    }
    entries.forEach((entry, i) => {
      entryAt(entry, event, [...at, i], ctx, out);
    });
  }
  return out;
}
