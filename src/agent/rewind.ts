/**
 * Checkpoints and rewind on the agent's side: which user turn each message belongs to (the
 * session port is wrapped to count), the pipeline's checkpoint step (the files a write tool is
 * about to change, or "a shell ran"), and `Agent.rewind` itself.
 */
import { CheckpointStore, checkpointsDirFor } from "../session/index.js";
import { type AnyTool, BUILTIN_TOOL_HOOK_FACTS } from "../tools/index.js";
import type { AgentCore } from "./core.js";
import type { RewindReport, SessionPort } from "./types.js";

/** The event a conversation rewind appends (src/session/records.ts REWIND_EVENT). */
const REWIND_EVENT = "rewind";

/** The user turn of each message in the live log, kept in step with the session port. */
export interface TurnTracker {
  port: SessionPort;
  turns: number[];
  /** The user turn of the last compaction still in the live log, or null. */
  compactedAt: number | null;
}

/** Wraps `session` so every message appended (or compacted into) records its turn. */
export function trackTurns(session: SessionPort): TurnTracker {
  const turns = session.messages.map((_, i) => session.turns?.[i] ?? 0);
  const tracker: TurnTracker = {
    port: session,
    turns,
    compactedAt: session.compactedAtTurn ?? null,
  };
  const appendMessage: SessionPort["appendMessage"] = (bytes, meta) => {
    turns.push(meta.turn);
    session.appendMessage(bytes, meta);
  };
  const recordCompaction: SessionPort["recordCompaction"] = (after, meta) => {
    turns.splice(0, turns.length, ...after.map(() => meta.turn));
    tracker.compactedAt = meta.turn;
    session.recordCompaction(after, meta);
  };
  // A Proxy, as withTranscripts (hook-adapter/transcripts.ts) wraps the same port:
  // everything else reaches the wrapped port unchanged.
  tracker.port = new Proxy(session, {
    get(target, prop, receiver) {
      if (prop === "appendMessage") return appendMessage;
      if (prop === "recordCompaction") return recordCompaction;
      return Reflect.get(target, prop, receiver);
    },
  });
  return tracker;
}

/** The checkpoint store of a session kept on disk, or null for one kept in memory. */
export function checkpointStoreFor(
  session: SessionPort,
  projectDir: string,
): CheckpointStore | null {
  if (!session.transcriptPath) return null;
  return new CheckpointStore(checkpointsDirFor(session.transcriptPath), projectDir);
}

const PATH_FIELDS = new Map(BUILTIN_TOOL_HOOK_FACTS.map((f) => [f.name, f.pathFields]));

/** The pipeline's checkpoint step: snapshots a write tool's paths; notes a shell call. */
export function checkpointStep(
  store: CheckpointStore,
  turn: () => number,
): (tool: AnyTool, input: Record<string, unknown>, callId: string) => void {
  return (tool, input, callId) => {
    if (tool.kind === "shell") {
      const command = typeof input.command === "string" ? input.command : tool.name;
      store.shellRan(turn(), command, callId);
      return;
    }
    if (tool.kind !== "write") return;
    for (const field of PATH_FIELDS.get(tool.name) ?? []) {
      const path = input[field];
      if (typeof path === "string" && path !== "") store.snapshot(turn(), path, callId);
    }
  };
}

/**
 * Why the conversation cannot go back to before `toTurn`, or null when it can: a compaction
 * during turn `toTurn` or later replaced the turns before it with one summary, so there is no
 * stored point to go back to (the pre-compaction messages are in the file, but resending them
 * would overflow the context the compaction made room in, and undo the one sanctioned rewrite).
 */
export function conversationRewindRefusal(tracker: TurnTracker, toTurn: number): string | null {
  const at = tracker.compactedAt;
  if (at === null || at < toTurn) return null;
  return `rewind: the conversation was compacted during turn ${at}: the turns up to it live on only in its summary, so the conversation cannot be rewound to before turn ${toTurn} (only to before a turn after ${at}). Nothing was changed. The files can still be put back: /rewind ${toTurn} files in the TUI, or keel run --resume ID --rewind ${toTurn} --rewind-files-only`;
}

/**
 * Rewinds files and/or the conversation to before user turn `toTurn`. Throws, having changed
 * nothing, when the conversation part cannot be done (conversationRewindRefusal).
 */
export function rewindTo(
  core: AgentCore,
  tracker: TurnTracker,
  store: CheckpointStore | null,
  toTurn: number,
  what: { files: boolean; conversation: boolean },
): RewindReport {
  if (!Number.isInteger(toTurn) || toTurn < 1) {
    throw new Error(`rewind: the turn must be a whole number from 1, got ${toTurn}`);
  }
  const refused = what.conversation ? conversationRewindRefusal(tracker, toTurn) : null;
  if (refused !== null) throw new Error(refused);
  const report: RewindReport = { restored: [], deleted: [], notRestorable: [], droppedMessages: 0 };
  if (what.files) {
    if (store === null) report.notRestorable.push("this session keeps no checkpoints (no file)");
    else Object.assign(report, store.restore(toTurn));
  }
  if (what.conversation) {
    const first = tracker.turns.findIndex((t) => t >= toTurn);
    const keep = first === -1 ? tracker.turns.length : first;
    report.droppedMessages = tracker.turns.length - keep;
    if (report.droppedMessages > 0) {
      core.session.recordEvent?.(REWIND_EVENT, { toTurn });
      core.log.truncate(keep);
      tracker.turns.splice(keep);
    }
    core.turns = Math.min(core.turns, toTurn - 1);
  }
  return report;
}

/** The user turns of the live log with their prompt's first words. */
export function userTurnsOf(
  core: AgentCore,
  tracker: TurnTracker,
): { turn: number; firstWords: string }[] {
  const out: { turn: number; firstWords: string }[] = [];
  let last = -1;
  for (const [i, turn] of tracker.turns.entries()) {
    if (turn === last || turn < 1) continue;
    const msg = core.log.at(i);
    if (msg?.role !== "user") continue;
    last = turn;
    const words = (msg.content ?? "").replace(/\s+/g, " ").trim().split(" ").slice(0, 8);
    out.push({ turn, firstWords: words.join(" ") });
  }
  return out;
}
