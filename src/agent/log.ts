/**
 * The append-only conversation log: each message is rendered once and its bytes are stored;
 * requests replay those bytes. Compaction is the one sanctioned rewrite, and it is counted.
 */
import type { ChatMessage } from "../llm/types.js";
import { parseRendered, renderMessage } from "./render.js";

/** Called with the stored bytes of every message appended (persistence). Must not throw. */
export type AppendListener = (bytes: string) => void;

/** Messages as exact bytes, growing only at the end. */
export class AppendOnlyLog {
  #bytes: string[] = [];
  #compactions = 0;
  readonly #onAppend: AppendListener | undefined;

  constructor(opts: { onAppend?: AppendListener } = {}) {
    this.#onAppend = opts.onAppend;
  }

  /** Renders `msg` once, stores and returns its bytes. */
  append(msg: ChatMessage): string {
    const bytes = renderMessage(msg);
    this.#bytes.push(bytes);
    this.#onAppend?.(bytes);
    return bytes;
  }

  /**
   * Restores messages stored earlier (resume), without re-rendering or re-persisting them.
   * Returns an error naming the first entry that is not a canonical message.
   */
  restore(stored: readonly string[]): { ok: true } | { ok: false; error: string } {
    for (const [i, bytes] of stored.entries()) {
      if (parseRendered(bytes) === null) {
        return { ok: false, error: `stored message ${i + 1} is not a canonical chat message` };
      }
    }
    this.#bytes.push(...stored);
    return { ok: true };
  }

  /** The stored bytes, in order (a snapshot: later appends do not change it). */
  messages(): readonly string[] {
    return this.#bytes.slice();
  }

  /** Number of messages stored. */
  get length(): number {
    return this.#bytes.length;
  }

  /** The parsed form of the message at `index` (negative counts from the end). */
  at(index: number): ChatMessage | null {
    const bytes = this.#bytes.at(index);
    return bytes === undefined ? null : parseRendered(bytes);
  }

  /** How many compactions rewrote this log. */
  get compactions(): number {
    return this.#compactions;
  }

  /**
   * Compaction, the one rewrite: replaces the whole log with `replacement` (rendered once here).
   * Returns the new bytes so the caller can persist the rewrite as one record.
   */
  compact(replacement: readonly ChatMessage[]): { before: number; after: readonly string[] } {
    const before = this.#bytes.length;
    this.#bytes = replacement.map(renderMessage);
    this.#compactions += 1;
    return { before, after: this.#bytes.slice() };
  }
}
