/**
 * The TUI's view of a session: a pure reducer from AgentEvents to what is on screen. Finished
 * entries go to `done` (rendered once, in Ink's <Static>); only the streaming tail, running tool
 * cards and the spinner's phase are live. This is display state only: the loop lives in the agent.
 */
import type { AgentEvent, ToolCallStatus } from "../../agent/index.js";
import type { HookRunRecord, HookStart } from "../../hooks/types.js";
import { plural } from "../format/text.js";
import { shortenCommand, wordWrap } from "./format.js";
import {
  afterShown,
  type BlockBuffer,
  blockOf,
  bufferText,
  EMPTY_BLOCK,
  feedLine,
  flushBuffer,
  type MdBlock,
  unshownLines,
} from "./md-blocks.js";
import { pushEntries } from "./push-entries.js";
import { sanitizeLine } from "./sanitize.js";
import { applyExtraEvent } from "./session-extras.js";

/** A hook row or notice that belongs to a tool call, shown inside its card. */
export type CardAttachment =
  | { kind: "hook"; run: HookRunRecord }
  | { kind: "notice"; level: "info" | "warn" | "error"; text: string };

/** A tool call as a card shows it. */
export interface ToolCardData {
  id: string;
  name: string;
  input: Record<string, unknown>;
  status: "running" | ToolCallStatus;
  /** Epoch ms when the call was announced (elapsed time while running). */
  startedAt: number;
  durationMs?: number;
  content?: string;
  /**
   * Hook runs and notices that arrived while the call ran (PreToolUse, PermissionRequest,
   * PostToolUse…): the card shows them, so a PostToolUse row never lands above its own call.
   */
  attached?: readonly CardAttachment[];
  /** A call from a resumed session's history: no status or time is known, only what ran. */
  historic?: boolean;
  /** The tail of what the call printed so far (shell), while it runs. */
  output?: string;
  /** Since when the call waits for the user's approval (set while the question is open). */
  approvalSince?: number;
  /** Time spent waiting for approval so far: not part of the call's duration. */
  approvalMs?: number;
}

/** One finished thing on screen. `key` is unique for the whole session. */
export type Entry =
  | { kind: "user"; key: string; text: string }
  /**
   * Assistant Markdown, flushed a block at a time; `continued` entries carry no bullet, and
   * `gap` keeps the blank line the answer had before the block.
   */
  | {
      kind: "assistant";
      key: string;
      text: string;
      continued: boolean;
      gap?: boolean;
      /** Body rows of the text's table shown above already (render the rest). */
      tableRowsShown?: number;
    }
  | { kind: "reasoning"; key: string; text: string; expanded: boolean }
  | { kind: "tool"; key: string; card: ToolCardData }
  | { kind: "hook"; key: string; run: HookRunRecord }
  | { kind: "notice"; key: string; level: "info" | "warn" | "error"; text: string }
  /** Output of a slash command or of Keel itself (not sanitized by the reducer: Keel's own text). */
  | { kind: "info"; key: string; title?: string; lines: string[] };

/** What the spinner says is running. */
export type Phase = { kind: "idle" } | { kind: "busy"; label: string; since: number };

/** Token and cost counters for the status line. */
export interface UsageTotals {
  hitTokens: number;
  missTokens: number;
  completionTokens: number;
  costUsd: number;
}

/** Everything the transcript view needs. */
export interface TranscriptState {
  done: Entry[];
  /** The assistant text of the current line being streamed (no newline yet). */
  streamingText: string;
  /** Complete lines of the Markdown block still being streamed (live until it is whole). */
  block: BlockBuffer;
  /** A blank line came after the last flushed block. */
  blockGap: boolean;
  /** Whether the streaming text continues an assistant entry already flushed to `done`. */
  streamingContinued: boolean;
  streamingReasoning: string;
  tools: ToolCardData[];
  /** Hooks started and not yet finished, oldest first (the spinner names the first). */
  runningHooks: HookStart[];
  phase: Phase;
  turn: UsageTotals;
  session: UsageTotals;
  /** The reasoning of the latest turn, for `/thinking`. */
  lastReasoning: string;
  expandReasoning: boolean;
  /** Cost of earlier agents of this session (after /model or /resume swapped the agent). */
  costBase: number;
  seq: number;
}

const ZERO: UsageTotals = { hitTokens: 0, missTokens: 0, completionTokens: 0, costUsd: 0 };

/** A fresh transcript. */
export function initialTranscript(opts: { expandReasoning?: boolean } = {}): TranscriptState {
  return {
    done: [],
    streamingText: "",
    block: EMPTY_BLOCK,
    blockGap: false,
    streamingContinued: false,
    streamingReasoning: "",
    tools: [],
    runningHooks: [],
    phase: { kind: "idle" },
    turn: ZERO,
    session: ZERO,
    lastReasoning: "",
    expandReasoning: opts.expandReasoning ?? false,
    costBase: 0,
    seq: 0,
  };
}

/** The cache hit ratio of some totals, or null before any request. */
export function hitRatio(t: UsageTotals): number | null {
  const total = t.hitTokens + t.missTokens;
  return total === 0 ? null : t.hitTokens / total;
}

const POST_TOOL = new Set(["PostToolUse", "PostToolUseFailure"]);

/** Bytes of a running call's output kept for its card (only the last lines are shown). */
const OUTPUT_TAIL = 4096;

/** What the spinner says while a hook runs: "running PreToolUse hook ./check.sh". */
export function hookStartLabel(hook: HookStart): string {
  return `running ${hook.event} hook ${shortenCommand(hook.command)}`;
}

function sameHook(a: HookStart, run: HookRunRecord): boolean {
  return a.hookId === run.hookId && a.event === run.event;
}

/** The spinner follows the oldest running hook, else the newest running card. */
function phaseAfterHooks(state: TranscriptState, now: number): TranscriptState {
  const hook = state.runningHooks[0];
  if (hook) {
    const label = hookStartLabel(hook);
    if (state.phase.kind === "busy" && state.phase.label === label) return state;
    return { ...state, phase: { kind: "busy", label, since: hook.startedAt } };
  }
  if (state.phase.kind !== "busy" || !state.phase.label.includes(" hook ")) return state;
  const last = state.tools[state.tools.length - 1];
  return busy(state, last ? `running ${last.name}` : "running hooks", now);
}

function appendOutput(state: TranscriptState, id: string, text: string): TranscriptState {
  const i = state.tools.findIndex((t) => t.id === id);
  const card = state.tools[i];
  if (!card) return state;
  const output = `${card.output ?? ""}${text}`.slice(-OUTPUT_TAIL);
  const tools = [...state.tools];
  tools[i] = { ...card, output };
  return { ...state, tools };
}

/** Whether a hook run deserves a row: it blocked, warned, failed, timed out or said something. */
export function hookRunIsVisible(run: HookRunRecord): boolean {
  if (run.outcome !== "pass") return true;
  // After a tool ran, whatever a hook says on stderr is the user's to see (a formatter's
  // complaint, a linter's warning): it would otherwise vanish without a trace.
  const stderr = POST_TOOL.has(run.event) && run.stderr.trim() !== "";
  return stderr || (run.message ?? "").trim() !== "" || run.stdout.trim() !== "";
}

/** An entry before it gets its key. */
export type EntryInit = Entry extends infer E ? (E extends Entry ? Omit<E, "key"> : never) : never;

/** Appends finished entries (keys assigned here); push-entries.ts, re-exported for callers. */
export { pushEntries };

function flushReasoning(state: TranscriptState): TranscriptState {
  if (state.streamingReasoning === "") return state;
  const text = state.streamingReasoning;
  const next = pushEntries(state, { kind: "reasoning", text, expanded: state.expandReasoning });
  // A turn may think before each request: /thinking shows all of it, in order.
  const lastReasoning = state.lastReasoning ? `${state.lastReasoning}\n\n${text}` : text;
  return { ...next, streamingReasoning: "", lastReasoning };
}

function pushBlocks(
  state: TranscriptState,
  blocks: readonly (MdBlock | string)[],
): TranscriptState {
  let s = state;
  for (const block of blocks) {
    const { text, tableRowsShown } = typeof block === "string" ? { text: block } : block;
    const gap = s.streamingContinued && s.blockGap;
    s = pushEntries(s, {
      kind: "assistant",
      text,
      continued: s.streamingContinued,
      ...(gap ? { gap } : {}),
      ...(tableRowsShown !== undefined ? { tableRowsShown } : {}),
    });
    s = { ...s, streamingContinued: true, blockGap: false };
  }
  return s;
}

function flushText(state: TranscriptState): TranscriptState {
  const s = pushBlocks(state, flushBuffer(state.block, state.streamingText));
  return {
    ...s,
    streamingText: "",
    block: EMPTY_BLOCK,
    blockGap: false,
    streamingContinued: false,
  };
}

/** The part of the answer still live: the unfinished block and the line being streamed. */
export function liveAssistantText(state: TranscriptState): string {
  if (state.block.lines.length === 0) return state.streamingText;
  // A table whose rows are all shown already has nothing live until its next row starts.
  if (unshownLines(state.block).length === 0 && state.streamingText === "") return "";
  return bufferText(state.block, state.streamingText);
}

function appendText(state: TranscriptState, delta: string, layout: Layout): TranscriptState {
  let s = flushReasoning(state);
  const text = s.streamingText + delta;
  const lines = text.split("\n");
  const partial = lines.pop() ?? "";
  let block = s.block;
  for (const line of lines) {
    const fed = feedLine(block, line, layout.maxLiveRows ?? 4);
    s = pushBlocks(s, fed.done);
    if (fed.blank && s.streamingContinued) s = { ...s, blockGap: true };
    block = fed.buf;
  }
  return boundLiveText({ ...s, block, streamingText: partial }, layout);
}

/**
 * A block streamed a long way (a paragraph without line breaks, a long list) must not grow the
 * live frame past the screen: Ink then redraws a frame taller than the terminal and every
 * redraw pushes its top rows into the scrollback again. The complete lines of a long block, and
 * then the rows that wrapped above the last one, become static as they complete.
 */
function boundLiveText(state: TranscriptState, layout: Layout): TranscriptState {
  if (!layout.textWidth) return state;
  const max = layout.maxLiveRows ?? 4;
  let s = state;
  const rowsOf = (text: string) => wordWrap(text, layout.textWidth ?? 80).split("\n").length;
  // A table's lines kept for parsing once shown are not on screen again: they do not count.
  const unshown = () => [...unshownLines(s.block), s.streamingText].join("\n");
  if (s.block.fence === null && s.block.lines.length > 0 && rowsOf(unshown()) > max) {
    // A table keeps its lines: the rows still to come must parse as rows of the same table.
    const shown = blockOf(s.block);
    s = { ...pushBlocks(s, shown ? [shown] : []), block: afterShown(s.block) };
  }
  if (s.block.lines.length > 0) return s;
  const rows = wordWrap(s.streamingText, layout.textWidth).split("\n");
  if (rows.length <= max) return s;
  const tail = rows[rows.length - 1] ?? "";
  const head = s.streamingText.slice(0, s.streamingText.length - tail.length).trimEnd();
  if (head === "") return s;
  return { ...pushBlocks(s, [head]), streamingText: tail };
}

/** Attaches to the newest running card; null when no call is running. */
function attachToRunningCard(state: TranscriptState, item: CardAttachment): TranscriptState | null {
  const last = state.tools[state.tools.length - 1];
  if (!last) return null;
  const card = { ...last, attached: [...(last.attached ?? []), item] };
  return { ...state, tools: [...state.tools.slice(0, -1), card] };
}

/** How long a card waited for approval, counting a question still open at `now`. */
function approvalMsOf(card: ToolCardData, now: number): number {
  const open = card.approvalSince === undefined ? 0 : Math.max(0, now - card.approvalSince);
  return (card.approvalMs ?? 0) + open;
}

/**
 * A permission question opened (`waiting`) or closed. The question is about the newest running
 * card (live-tools.tsx marks that one "awaiting approval"); the time it stays open is the
 * user's, not the tool's, so it is left out of the card's elapsed time and duration.
 */
export function approvalWait(
  state: TranscriptState,
  waiting: boolean,
  now: number,
): TranscriptState {
  if (waiting) {
    const last = state.tools[state.tools.length - 1];
    if (!last || last.approvalSince !== undefined) return state;
    return { ...state, tools: [...state.tools.slice(0, -1), { ...last, approvalSince: now }] };
  }
  if (!state.tools.some((t) => t.approvalSince !== undefined)) return state;
  const tools = state.tools.map((card) => {
    if (card.approvalSince === undefined) return card;
    const { approvalSince: _, ...rest } = card;
    const waited = Math.max(0, now - card.approvalSince);
    // Moving the start keeps the running card's elapsed time (now - startedAt) the tool's own.
    return { ...rest, startedAt: card.startedAt + waited, approvalMs: approvalMsOf(card, now) };
  });
  return { ...state, tools };
}

function busy(state: TranscriptState, label: string, now: number): TranscriptState {
  if (state.phase.kind === "busy" && state.phase.label === label) return state;
  return { ...state, phase: { kind: "busy", label, since: now } };
}

function addUsage(t: UsageTotals, u: Extract<AgentEvent, { type: "usage" }>): UsageTotals {
  return {
    hitTokens: t.hitTokens + u.usage.cacheHitTokens,
    missTokens: t.missTokens + u.usage.cacheMissTokens,
    completionTokens: t.completionTokens + u.usage.completionTokens,
    costUsd: t.costUsd,
  };
}

/** Keeps the cost so far when a new agent (whose own total starts at 0) takes over the session. */
export function rebaseCost(state: TranscriptState): TranscriptState {
  return { ...state, costBase: state.session.costUsd };
}

/** What the reducer needs to know about the screen (to keep the live frame small). */
export interface Layout {
  /** Columns available to assistant text; without it streamed text is never split. */
  textWidth?: number;
  /** Rows the streaming paragraph may take before its wrapped rows become static (default 4). */
  maxLiveRows?: number;
}

/** Applies one agent event. `now` is injected so the reducer stays pure. */
export function applyEvent(
  state: TranscriptState,
  ev: AgentEvent,
  now: number,
  layout: Layout = {},
): TranscriptState {
  switch (ev.type) {
    case "turn_start":
      return busy({ ...state, turn: ZERO, lastReasoning: "" }, "running hooks", now);
    case "request_start":
      return busy(state, "waiting for the model", now);
    case "reasoning_delta":
      return busy(
        { ...state, streamingReasoning: state.streamingReasoning + ev.text },
        "thinking",
        now,
      );
    case "text_delta":
      return busy(appendText(state, ev.text, layout), "writing", now);
    case "tool_call":
      return toolCalled(state, ev, now);
    case "tool_result":
      return toolFinished(state, ev, now);
    case "tool_output":
      return appendOutput(state, ev.id, ev.text);
    case "hook_start":
      return phaseAfterHooks({ ...state, runningHooks: [...state.runningHooks, ev.hook] }, now);
    case "hook_end":
      return hookEnded(state, ev, now);
    case "hook_run":
      return hookRan(state, ev, now);
    case "notice":
      return (
        attachToRunningCard(state, { kind: "notice", level: ev.level, text: ev.text }) ??
        pushEntries(flushText(state), { kind: "notice", level: ev.level, text: ev.text })
      );
    case "usage":
      return {
        ...state,
        // `turnCostUsd` is this request's cost; `costUsd` the session's running total.
        turn: { ...addUsage(state.turn, ev), costUsd: state.turn.costUsd + ev.turnCostUsd },
        session: { ...addUsage(state.session, ev), costUsd: state.costBase + ev.costUsd },
      };
    case "compacted":
      return pushEntries(flushText(flushReasoning(state)), {
        kind: "notice",
        level: "info",
        text: `compacted${ev.trigger === "auto" ? " automatically" : ""} ${ev.beforeMessages} → ${plural(ev.afterMessages, "message")} (the next request misses the cache once)`,
      });
    case "error":
      return pushEntries(flushText(flushReasoning(state)), {
        kind: "notice",
        level: "error",
        text: ev.message,
      });
    case "turn_end":
      return turnEnded(state, ev, now);
    default:
      return applyExtraEvent(state, ev);
  }
}

type Ev<T extends AgentEvent["type"]> = Extract<AgentEvent, { type: T }>;

/** A tool call starts: its card joins the running ones. */
function toolCalled(state: TranscriptState, ev: Ev<"tool_call">, now: number): TranscriptState {
  const s = flushText(flushReasoning(state));
  const card: ToolCardData = {
    id: ev.id,
    // A model's tool name is shown in the card and the status line: sanitized once, here.
    name: sanitizeLine(ev.name),
    input: ev.input,
    status: "running",
    startedAt: now,
  };
  return busy({ ...s, tools: [...s.tools, card] }, `running ${card.name}`, now);
}

/** A tool call's result: its card is finished and printed. */
function toolFinished(state: TranscriptState, ev: Ev<"tool_result">, now: number): TranscriptState {
  const running = state.tools.find((t) => t.id === ev.id);
  // The agent's duration runs from the call to its result, the user's approval included.
  const durationMs = Math.max(0, ev.durationMs - (running ? approvalMsOf(running, now) : 0));
  const card: ToolCardData = {
    id: ev.id,
    name: sanitizeLine(ev.name),
    input: ev.input,
    status: ev.status,
    startedAt: running?.startedAt ?? now - durationMs,
    durationMs,
    content: ev.content,
    ...(running?.attached ? { attached: running.attached } : {}),
  };
  const tools = state.tools.filter((t) => t.id !== ev.id);
  const s = pushEntries({ ...state, tools }, { kind: "tool", card });
  const label = tools.length > 0 ? `running ${tools[tools.length - 1]?.name}` : "running hooks";
  return busy(s, label, now);
}

/** One hook of a firing ended: the spinner moves on to one still running. */
function hookEnded(state: TranscriptState, ev: Ev<"hook_end">, now: number): TranscriptState {
  const { hookId, event, startedAt } = ev.hook;
  const runningHooks = state.runningHooks.filter(
    (h) => !(h.hookId === hookId && h.event === event && h.startedAt === startedAt),
  );
  if (runningHooks.length === state.runningHooks.length) return state;
  return phaseAfterHooks({ ...state, runningHooks }, now);
}

/** A hook's run: no longer running, and shown when it is worth a row. */
function hookRan(state: TranscriptState, ev: Ev<"hook_run">, now: number): TranscriptState {
  const i = state.runningHooks.findIndex((h) => sameHook(h, ev.run));
  const runningHooks = i < 0 ? state.runningHooks : state.runningHooks.filter((_, j) => j !== i);
  const s = i < 0 ? state : phaseAfterHooks({ ...state, runningHooks }, now);
  if (!hookRunIsVisible(ev.run)) return s;
  // A Stop hook runs after the last line of the answer, which may still be streaming text.
  return (
    attachToRunningCard(s, { kind: "hook", run: ev.run }) ??
    pushEntries(flushText(flushReasoning(s)), { kind: "hook", run: ev.run })
  );
}

/** The turn ended: what streamed is printed, cards still running were cut off. */
function turnEnded(state: TranscriptState, ev: Ev<"turn_end">, now: number): TranscriptState {
  let s = flushText(flushReasoning(state));
  // Cards still running when the turn ends were cut off (interrupt): show them as such.
  for (const card of s.tools) {
    const approval = card.approvalSince === undefined ? 0 : now - card.approvalSince;
    s = pushEntries(s, {
      kind: "tool",
      card: {
        ...card,
        status: "error",
        durationMs: Math.max(0, now - card.startedAt - approval),
        content: "interrupted",
      },
    });
  }
  s = { ...s, tools: [], runningHooks: [], phase: { kind: "idle" } };
  if (ev.stopReason === "aborted") {
    s = pushEntries(s, { kind: "notice", level: "warn", text: "interrupted" });
  } else if (ev.stopReason === "max_turns") {
    s = pushEntries(s, { kind: "notice", level: "warn", text: "stopped: too many steps" });
  }
  return s;
}
