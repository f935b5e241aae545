/**
 * The append-only conversation log: each message is rendered once and its bytes are stored;
 * requests replay those bytes. Compaction is the one sanctioned rewrite, and it is counted.
 *
 * Two user messages in a row (a prompt whose request failed or was interrupted, then the next
 * prompt; a compaction summary, then the next prompt) are never sent as such: DeepSeek's
 * thinking models have rejected successive user messages. Each message is still stored as its
 * own bytes (the session file only grows), and the request view merges such a run into one user
 * message. The merge is a pure function of the stored messages, so a resumed session sends the
 * same bytes, and every answered request stays a byte prefix of the next one: only a user
 * message that got no answer is ever extended.
 */
import type { ChatMessage } from "../llm/index.js";
import { parseRendered, renderMessage } from "./render.js";

/** Called with the stored bytes of every message appended (persistence). Must not throw. */
export type AppendListener = (bytes: string) => void;

/** How consecutive user messages are joined in the request view. */
export const USER_MESSAGE_JOIN = "\n\n";

/** The request view: stored messages with runs of user messages merged. */
class WireView {
  bytes: string[] = [];
  /** Content of the last entry when it is a user message (so a merge needs no re-parse). */
  lastUser: string | null = null;
  /** Images of the last entry when it is a user message: a merge keeps them, in order. */
  lastImages: string[] = [];

  add(msg: ChatMessage, rendered: string): void {
    if (msg.role === "user" && this.lastUser !== null) {
      const content = `${this.lastUser}${USER_MESSAGE_JOIN}${msg.content ?? ""}`;
      const images = [...this.lastImages, ...(msg.images ?? [])];
      this.bytes[this.bytes.length - 1] = renderMessage({
        role: "user",
        content,
        ...(images.length > 0 ? { images } : {}),
      });
      this.lastUser = content;
      this.lastImages = images;
      return;
    }
    this.bytes.push(rendered);
    this.lastUser = msg.role === "user" ? (msg.content ?? "") : null;
    this.lastImages = msg.role === "user" ? (msg.images ?? []) : [];
  }
}

/** Messages as exact bytes, growing only at the end. */
export class AppendOnlyLog {
  #bytes: string[] = [];
  #wire = new WireView();
  #compactions = 0;
  readonly #onAppend: AppendListener | undefined;

  constructor(opts: { onAppend?: AppendListener } = {}) {
    this.#onAppend = opts.onAppend;
  }

  /** Renders `msg` once, stores and returns its bytes. */
  append(msg: ChatMessage): string {
    const bytes = renderMessage(msg);
    this.#bytes.push(bytes);
    this.#wire.add(msg, bytes);
    this.#onAppend?.(bytes);
    return bytes;
  }

  /**
   * Restores messages stored earlier (resume), without re-rendering or re-persisting them.
   * Returns an error naming the first entry that is not a canonical message.
   */
  restore(stored: readonly string[]): { ok: true } | { ok: false; error: string } {
    const parsed: ChatMessage[] = [];
    for (const [i, bytes] of stored.entries()) {
      const msg = parseRendered(bytes);
      if (msg === null) {
        return { ok: false, error: `stored message ${i + 1} is not a canonical chat message` };
      }
      parsed.push(msg);
    }
    for (const [i, msg] of parsed.entries()) {
      const bytes = stored[i] ?? renderMessage(msg);
      this.#bytes.push(bytes);
      this.#wire.add(msg, bytes);
    }
    return { ok: true };
  }

  /**
   * The bytes a request sends, in order (a snapshot: later appends do not change it). Equal to
   * the stored messages except that consecutive user messages are merged into one.
   */
  messages(): readonly string[] {
    return this.#wire.bytes.slice();
  }

  /** `messages()` followed by `extra` (not stored), merged the same way. */
  messagesWith(extra: readonly ChatMessage[]): string[] {
    if (extra.length === 0) return this.#wire.bytes.slice();
    const view = new WireView();
    view.bytes = this.#wire.bytes.slice();
    view.lastUser = this.#wire.lastUser;
    view.lastImages = this.#wire.lastImages;
    for (const msg of extra) view.add(msg, renderMessage(msg));
    return view.bytes;
  }

  /** The stored messages, each as its own bytes (what the session file holds). */
  stored(): readonly string[] {
    return this.#bytes.slice();
  }

  /** Number of messages stored. */
  get length(): number {
    return this.#bytes.length;
  }

  /** The parsed form of the stored message at `index` (negative counts from the end). */
  at(index: number): ChatMessage | null {
    const bytes = this.#bytes.at(index);
    return bytes === undefined ? null : parseRendered(bytes);
  }

  /**
   * Keeps only the first `keep` stored messages (a rewind). The request view is rebuilt from
   * the kept bytes, so the next request is a byte prefix of an earlier one.
   */
  truncate(keep: number): void {
    const kept = this.#bytes.slice(0, Math.max(0, keep));
    this.#bytes = [];
    this.#wire = new WireView();
    for (const bytes of kept) {
      const msg = parseRendered(bytes);
      if (msg === null) continue;
      this.#bytes.push(bytes);
      this.#wire.add(msg, bytes);
    }
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
    this.#bytes = [];
    this.#wire = new WireView();
    for (const msg of replacement) {
      const bytes = renderMessage(msg);
      this.#bytes.push(bytes);
      this.#wire.add(msg, bytes);
    }
    this.#compactions += 1;
    return { before, after: this.#bytes.slice() };
  }
}
