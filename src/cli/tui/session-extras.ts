/**
 * How the TUI shows the agent's session-level events (issue 11): project memory loaded, a
 * sub-agent's progress inside its `task` card, harvested plan state, branch selection and
 * compaction costs. Kept apart from transcript.ts so the core reducer stays small.
 */
import type { AgentEvent } from "../../agent/index.js";
import { branchLine, planLines } from "../../agent/reasoning-lines.js";
import { pushEntries } from "./push-entries.js";
import type { CardAttachment, TranscriptState } from "./transcript.js";

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
    case "subagent":
      return applySubagentEvent(state, ev);
    case "harvest": {
      const lines = planLines(ev.plan);
      const s = addCost(state, ev.costUsd);
      if (lines.length === 0) return s;
      return pushEntries(s, { kind: "info", lines });
    }
    case "branch":
      return pushEntries(state, { kind: "info", lines: [`🔀 ${branchLine(ev)}`] });
    case "todos":
      // The model rewrites the whole list each time: the newest checklist is the current one.
      return pushEntries(state, { kind: "info", lines: todoLines(ev.todos) });
    default:
      return state;
  }
}

/** The todo list as a checklist: done ✔, the one in progress ▶ (in its active form), to do ☐. */
export function todoLines(todos: Extract<AgentEvent, { type: "todos" }>["todos"]): string[] {
  if (todos.length === 0) return ["todos: (empty)"];
  const done = todos.filter((t) => t.status === "completed").length;
  return [
    `todos: ${done}/${todos.length} done`,
    ...todos.map((t) =>
      t.status === "completed"
        ? `  ✔ ${t.content}`
        : t.status === "in_progress"
          ? `  ▶ ${t.activeForm}`
          : `  ☐ ${t.content}`,
    ),
  ];
}

/** A sub-agent's progress, shown inside its `task` card: its calls, failures, hooks; its cost. */
function applySubagentEvent(
  state: TranscriptState,
  ev: Extract<AgentEvent, { type: "subagent" }>,
): TranscriptState {
  const inner = ev.event;
  const attach = (item: CardAttachment) => attachToCard(state, ev.toolCallId, item) ?? state;
  switch (inner.type) {
    case "tool_call":
      return attach({
        kind: "notice",
        level: "info",
        text: `${ev.agentType} → ${inner.name} ${preview(inner.input)}`,
      });
    case "tool_result":
      if (inner.status === "ok") return state;
      return attach({
        kind: "notice",
        level: "warn",
        text: `${ev.agentType} → ${inner.name} ${inner.status}: ${firstLine(inner.content)}`,
      });
    case "hook_run":
      return inner.run.outcome === "pass" ? state : attach({ kind: "hook", run: inner.run });
    case "notice":
      return attach({ kind: "notice", level: inner.level, text: inner.text });
    case "error":
      return attach({ kind: "notice", level: "error", text: inner.message });
    case "usage": {
      const add = <
        T extends {
          hitTokens: number;
          missTokens: number;
          completionTokens: number;
          costUsd: number;
        },
      >(
        t: T,
      ): T => ({
        ...t,
        hitTokens: t.hitTokens + inner.usage.cacheHitTokens,
        missTokens: t.missTokens + inner.usage.cacheMissTokens,
        completionTokens: t.completionTokens + inner.usage.completionTokens,
        costUsd: t.costUsd + inner.turnCostUsd,
      });
      return { ...state, turn: add(state.turn), session: add(state.session) };
    }
    default:
      return state;
  }
}

/** Adds a side call's cost (harvest) to the turn and the session, as the status line shows. */
function addCost(state: TranscriptState, costUsd: number): TranscriptState {
  if (costUsd === 0) return state;
  return {
    ...state,
    turn: { ...state.turn, costUsd: state.turn.costUsd + costUsd },
    session: { ...state.session, costUsd: state.session.costUsd + costUsd },
  };
}

function preview(input: Record<string, unknown>): string {
  const first = Object.values(input).find((v) => typeof v === "string");
  return typeof first === "string" ? firstLine(first) : "";
}

function firstLine(text: string): string {
  const line = text.split("\n")[0] ?? "";
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
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
