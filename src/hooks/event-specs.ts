/**
 * The event catalogue as the engine, the matcher and `keel hooks validate` read it: each event's
 * static facts, derived from its entry in event-table.ts (the one place an event is defined).
 */
import { EVENT_TABLE } from "./event-table.js";
import type { EventSpec, HookEventName } from "./events.js";

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

/** The catalogue, keyed by event name. */
export const EVENT_SPECS = Object.fromEntries(
  (Object.keys(EVENT_TABLE) as HookEventName[]).map((name) => [name, specOf(name)]),
) as Readonly<Record<HookEventName, EventSpec>>;
