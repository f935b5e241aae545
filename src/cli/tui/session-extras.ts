/**
 * How the TUI shows the agent's session-level events (issue 11): project memory loaded, a
 * sub-agent's progress inside its `task` card, harvested plan state, branch selection and
 * compaction costs. Kept apart from transcript.ts so the core reducer stays small.
 */
import type { AgentEvent } from "../../agent/events.js";
import { type CardAttachment, pushEntries, type TranscriptState } from "./transcript.js";

/** The events this module renders. */
export type ExtraEvent = Extract<AgentEvent, { type: "memory_loaded" }>;

/** Applies one session-level event; unknown events leave the state as it was. */
export function applyExtraEvent(state: TranscriptState, ev: AgentEvent): TranscriptState {
  switch (ev.type) {
    case "memory_loaded": {
      if (ev.files.length === 0 && ev.skipped.length === 0) return state;
      const names = ev.files.map((f) => f.label).join(", ");
      const bytes = ev.files.reduce((n, f) => n + f.bytes, 0);
      const skipped = ev.skipped.length > 0 ? `; ${ev.skipped.length} skipped (/memory)` : "";
      const text =
        ev.files.length > 0
          ? `memory: ${names} (${bytes} bytes)${skipped}`
          : `memory: nothing loaded${skipped}`;
      return pushEntries(state, { kind: "notice", level: "info", text });
    }
    default:
      return state;
  }
}

/** Adds `item` to the running card with id `cardId` (a sub-agent's progress); null if none. */
export function attachToCard(
  state: TranscriptState,
  cardId: string,
  item: CardAttachment,
): TranscriptState | null {
  const i = state.tools.findIndex((t) => t.id === cardId);
  const card = state.tools[i];
  if (card === undefined) return null;
  const next = { ...card, attached: [...(card.attached ?? []), item] };
  return { ...state, tools: [...state.tools.slice(0, i), next, ...state.tools.slice(i + 1)] };
}
