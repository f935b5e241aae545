/**
 * Transcripts in other agents' formats, for their hooks (Dialect.transcript; Claude Code's is
 * hooks/dialects/claude/transcript.ts): each dialect that writes one gets every message Keel
 * stores, through a wrapper around the session port.
 */
import { existsSync } from "node:fs";
import { DIALECT_LIST, type DialectTranscript, type TranscriptFacts } from "../../hooks/index.js";
import { VERSION } from "../../version.js";
import type { SessionPort } from "../types.js";

/** One dialect's transcript of the session. */
export interface SessionTranscript {
  dialect: string;
  writer: DialectTranscript;
}

/** A writer for every dialect that keeps a transcript of its own. */
export function openTranscripts(facts: Omit<TranscriptFacts, "version">): SessionTranscript[] {
  return DIALECT_LIST.flatMap((d) =>
    d.transcript ? [{ dialect: d.name, writer: d.transcript({ ...facts, version: VERSION }) }] : [],
  );
}

/** Where each dialect's transcript is (the engine's DialectSessionFacts.transcriptPaths). */
export function transcriptPaths(transcripts: readonly SessionTranscript[]): Record<string, string> {
  return Object.fromEntries(transcripts.map((t) => [t.dialect, t.writer.path]));
}

/**
 * The session port with transcripts following it: every message Keel stores is also written
 * to each; a resumed session's earlier messages are written first to a transcript that is new.
 */
export function withTranscripts(
  session: SessionPort,
  transcripts: readonly SessionTranscript[],
  promptId: () => string | undefined,
): SessionPort {
  if (transcripts.length === 0) return session;
  const writers = transcripts.map((t) => t.writer);
  for (const writer of writers) {
    if (existsSync(writer.path)) continue;
    for (const bytes of session.messages) writer.append(bytes, undefined);
  }
  const append = (bytes: string) => {
    for (const writer of writers) writer.append(bytes, promptId());
  };
  return new Proxy(session, {
    get(target, prop) {
      if (prop === "appendMessage") {
        return (bytes: string, meta: { turn: number }) => {
          target.appendMessage(bytes, meta);
          append(bytes);
        };
      }
      if (prop === "recordCompaction") {
        return (messages: readonly string[], meta: { turn: number }) => {
          target.recordCompaction(messages, meta);
          for (const bytes of messages) append(bytes);
        };
      }
      const value: unknown = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
