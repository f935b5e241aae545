/**
 * The hook event catalogue (docs/hooks.md "Events"): names, which events can gate the agent, what a
 * matcher filters on, default timeouts, and the typed Keel-native payload of each event.
 *
 * Every event is defined once, in event-table.ts; this file derives the names, the facts
 * (EVENT_SPECS) and the payload types.
 * Payloads here are always in Keel's terms (Keel tool names and input fields, absolute
 * `cwd`). Dialects translate them into their own agent's shape before a hook sees them.
 */
import type { z } from "zod";
import { type COMMON_PAYLOAD, EVENT_TABLE, type MatcherField } from "./event-table.js";

export {
  COMMON_PAYLOAD,
  defineEvent,
  EVENT_TABLE,
  type MatcherField,
  type SampleContext,
} from "./event-table.js";

/** The name of a hook event. */
export type HookEventName = keyof typeof EVENT_TABLE;

/** Every event Keel knows (Claude Code's 30), in lifecycle order (the table's order). */
export const HOOK_EVENTS = Object.keys(EVENT_TABLE) as readonly HookEventName[];

/** Static facts about one event. */
export interface EventSpec {
  readonly name: HookEventName;
  /** Whether a hook can stop the thing the event announces (block, deny, continue the turn). */
  readonly gating: boolean;
  /** Whether a block makes the agent go on working (Stop, SubagentStop, …) instead of stopping
   *  an action: a hook that times out there does not block (fail-closed would buy model turns,
   *  not safety), unless its handler says `"onTimeout": "block"`. */
  readonly blockContinues: boolean;
  /** Whether the event concerns a tool call (`if` conditions only apply to these). */
  readonly toolEvent: boolean;
  readonly matcherField: MatcherField;
  /** How a matcher is tested against the matcher field: full match, or a regex search (prompt text). */
  readonly matchMode: "name" | "search";
  /** Whether Keel has the moment this event announces (false: defined for Claude Code files,
   *  listed once by `keel hooks validate` as "never fires in Keel"). */
  readonly firesInKeel: boolean;
  readonly description: string;
}

function specOf(name: HookEventName): EventSpec {
  const def = EVENT_TABLE[name];
  return {
    name,
    gating: def.gating,
    blockContinues: def.blockContinues ?? false,
    toolEvent: def.toolEvent ?? false,
    matcherField: def.matcher,
    matchMode: def.matchMode ?? "name",
    firesInKeel: def.firesInKeel ?? true,
    description: def.description,
  };
}

/** The catalogue as the engine, the matcher and `keel hooks validate` read it: each event's
 *  static facts, keyed by event name (derived from its entry in event-table.ts). */
export const EVENT_SPECS = Object.fromEntries(
  HOOK_EVENTS.map((name) => [name, specOf(name)]),
) as Readonly<Record<HookEventName, EventSpec>>;

/** Whether `name` is a known event (case-sensitive, as in every dialect). */
export function isHookEventName(name: string): name is HookEventName {
  return (HOOK_EVENTS as readonly string[]).includes(name);
}

/** Default handler timeouts in seconds for the native dialect (docs/hooks.md "Timeouts, fail-closed gating and output caps"). */
export const DEFAULT_TIMEOUT_SEC = {
  command: 60,
  http: 60,
  prompt: 30,
  agent: 120,
  mcp_tool: 60,
} as const;

/** The longest a hook may run: 24 h (Node's timers overflow past 2^31-1 ms and fire at once). */
export const MAX_HOOK_TIMEOUT_MS = 24 * 60 * 60 * 1000;

/** All SessionEnd hooks together get this budget, in milliseconds. */
export const SESSION_END_BUDGET_MS = 2000;

/** Grace between SIGTERM and SIGKILL for a timed-out hook's process group. */
export const KILL_GRACE_MS = 500;

/** At most this many Stop blocks in a row before the agent stops anyway. */
export const MAX_STOP_BLOCKS_IN_A_ROW = 8;

/** Fields every payload carries. */
export type CommonPayload = z.infer<ReturnType<typeof COMMON_PAYLOAD>>;

/** A JSON object as tools take it. */
export type ToolInput = Record<string, unknown>;

/** Payload fields per event, in Keel's terms (inferred from each event's zod object). */
export type EventPayloadFields = {
  [E in HookEventName]: z.infer<ReturnType<(typeof EVENT_TABLE)[E]["payload"]>>;
};

/** TaskCreated / TaskCompleted fields (Claude Code agent teams). */
export type TaskFields = EventPayloadFields["TaskCreated"];

/** The full Keel-native payload of event E, as written to a native hook's stdin. */
export type EventPayload<E extends HookEventName = HookEventName> = CommonPayload & {
  hook_event_name: E;
} & EventPayloadFields[E];

/** Any event's payload (a discriminated union on `hook_event_name`). */
export type AnyEventPayload = { [E in HookEventName]: EventPayload<E> }[HookEventName];
