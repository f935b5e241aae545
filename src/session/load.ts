/** Reading a session back: meta, messages as their exact bytes, events, usage, warnings. */
import { parseLine, readLines } from "./jsonl.js";
import {
  COMPACTION_EVENT,
  eventLineSchema,
  messageLineSchema,
  REWIND_EVENT,
  type SessionMeta,
  sessionMetaSchema,
  sliceRendered,
  type UsageRecord,
  usageLineSchema,
} from "./records.js";

/** An event as read back, with its position among the messages. */
export interface LoadedEvent {
  kind: string;
  /** How many messages were appended before this event. */
  atMessage: number;
  ts: string | undefined;
  data: Record<string, unknown>;
}

/** A whole session as stored. */
export interface LoadedSession {
  meta: SessionMeta;
  path: string;
  /** Every message ever appended, byte-identical to what the agent rendered. */
  messages: string[];
  /** The turn number of each message (parallel to `messages`). */
  turns: number[];
  events: LoadedEvent[];
  usage: UsageRecord[];
  /**
   * The conversation's size in prompt tokens when the file ends: the largest prompt of the
   * requests since the last compaction (a conversation only grows between compactions; side
   * calls such as prompt hooks are smaller), 0 when none. Lets a resumed session compact on time.
   */
  promptTokens: number;
  /** Lines that could not be read (a torn last line after a crash, hand edits), each naming the
   *  file and line; never fatal. */
  warnings: string[];
}

/** A session file that cannot be read at all (missing, or no meta line). */
export class SessionError extends Error {
  override name = "SessionError";
}

/** Reads a session file. Throws SessionError only when there is no readable meta line. */
export function readSessionFile(path: string): LoadedSession {
  const { lines, tail } = readLines(path);
  const all = tail ? [...lines, tail] : lines;
  const first = all[0];
  const meta = first ? sessionMetaSchema.safeParse(parseLine(first.text)) : undefined;
  if (!first || !meta?.success) {
    throw new SessionError(`${path} is not a Keel session (no session line at the top)`);
  }
  const out: LoadedSession = {
    meta: meta.data,
    path,
    messages: [],
    turns: [],
    events: [],
    usage: [],
    promptTokens: 0,
    warnings: [],
  };
  for (const line of all.slice(1)) {
    const isTail = line === tail;
    const value = parseLine(line.text);
    if (value === undefined) {
      out.warnings.push(
        isTail
          ? `${path} line ${line.lineNo}: incomplete last line ignored (the session was interrupted while writing)`
          : `${path} line ${line.lineNo}: not valid JSON, ignored`,
      );
      continue;
    }
    const message = messageLineSchema.safeParse(value);
    if (message.success) {
      const rendered = sliceRendered(line.text);
      if (rendered === null) {
        out.warnings.push(
          `${path} line ${line.lineNo}: message re-serialized (not in Keel's line format)`,
        );
      }
      out.messages.push(rendered ?? JSON.stringify(message.data.m));
      out.turns.push(message.data.turn);
      continue;
    }
    const event = eventLineSchema.safeParse(value);
    if (event.success) {
      const { type: _t, kind, ts, ...data } = event.data;
      out.events.push({ kind, ts, atMessage: out.messages.length, data });
      if (kind === COMPACTION_EVENT) out.promptTokens = 0;
      continue;
    }
    const usage = usageLineSchema.safeParse(value);
    if (usage.success) {
      const { type: _t, ...record } = usage.data;
      out.usage.push(record);
      out.promptTokens = Math.max(out.promptTokens, record.promptTokens);
      continue;
    }
    out.warnings.push(`${path} line ${line.lineNo}: unknown record, ignored`);
  }
  return out;
}

/** The messages after the last compaction, less those a later rewind dropped: what a resumed
 *  session replays. */
export function liveMessages(session: LoadedSession): string[] {
  return liveEntries(session).map((e) => e.bytes);
}

/** The live messages with the user turn each belongs to. */
export function liveEntries(session: LoadedSession): { bytes: string; turn: number }[] {
  return liveState(session).entries;
}

/**
 * The live messages, and the user turn of the last compaction whose summary is still live (null
 * when none): a conversation rewind to that turn or earlier would have to undo the summary, so
 * it is refused (src/agent/rewind.ts).
 */
export function liveState(session: LoadedSession): {
  entries: { bytes: string; turn: number }[];
  compactedAtTurn: number | null;
} {
  let live: { bytes: string; turn: number }[] = [];
  let compactedAtTurn: number | null = null;
  let at = 0;
  const take = (until: number) => {
    for (; at < until; at++) {
      live.push({ bytes: session.messages[at] ?? "", turn: session.turns[at] ?? 0 });
    }
  };
  for (const e of session.events) {
    if (e.kind !== COMPACTION_EVENT && e.kind !== REWIND_EVENT) continue;
    take(e.atMessage);
    if (e.kind === COMPACTION_EVENT) {
      live = [];
      // The summary's messages follow the event, written with the compaction's turn.
      compactedAtTurn = session.turns[e.atMessage] ?? null;
    }
    const toTurn = e.data.toTurn;
    if (e.kind === REWIND_EVENT && typeof toTurn === "number") {
      live = live.filter((m) => m.turn < toTurn);
      if (compactedAtTurn !== null && compactedAtTurn >= toTurn) compactedAtTurn = null;
    }
  }
  take(session.messages.length);
  return { entries: live, compactedAtTurn };
}
