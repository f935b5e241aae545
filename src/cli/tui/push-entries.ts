/**
 * Appending finished entries to the transcript, each with the next key. Its own module so that
 * session-extras.ts can add entries without importing transcript.ts, which imports it back
 * (applyExtraEvent): the two no longer load each other.
 */
import type { Entry, EntryInit, TranscriptState } from "./transcript.js";

/** `state` with `entries` appended to the finished part, keyed in order. */
export function pushEntries(state: TranscriptState, ...entries: EntryInit[]): TranscriptState {
  let seq = state.seq;
  const added = entries.map((e) => ({ ...e, key: `e${++seq}` }) as Entry);
  return { ...state, done: [...state.done, ...added], seq };
}
