/**
 * The script's replies, consumed in order: a request takes the first unused reply whose `when`
 * matches it (replies without `when` match anything). `repeat: n` expands to n uses.
 */
import type { Reply } from "./script.js";
import type { SimChatRequest } from "./validate.js";

interface Entry {
  reply: Reply;
  used: boolean;
}

/** The reply a request took, with its position in the expanded script. */
export interface TakenReply {
  reply: Reply;
  index: number;
}

/** Ordered, consumable replies. */
export class ReplyQueue {
  private readonly entries: Entry[] = [];
  /** Every entry before this one is used: keeps `take` cheap for long scripts. */
  private firstUnused = 0;

  constructor(replies: readonly Reply[]) {
    this.add(replies);
  }

  /** Appends replies (each `repeat` times). */
  add(replies: readonly Reply[]): void {
    for (const reply of replies) {
      for (let i = 0; i < (reply.repeat ?? 1); i++) this.entries.push({ reply, used: false });
    }
  }

  /** Takes the first unused reply matching `request`, or null when none is left. */
  take(request: SimChatRequest): TakenReply | null {
    for (let i = this.firstUnused; i < this.entries.length; i++) {
      const entry = this.entries[i];
      if (!entry || entry.used || !matches(entry.reply.when, request)) continue;
      entry.used = true;
      while (this.entries[this.firstUnused]?.used) this.firstUnused++;
      return { reply: entry.reply, index: i };
    }
    return null;
  }

  /** Unused replies. */
  remaining(): number {
    return this.entries.filter((e) => !e.used).length;
  }
}

function matches(when: Reply["when"], request: SimChatRequest): boolean {
  if (!when) return true;
  const messages = request.messages;
  const last = messages[messages.length - 1];
  const lastUser = [...messages].reverse().find((m) => m.role === "user");
  if (
    when.lastUserContains !== undefined &&
    !(lastUser?.content ?? "").includes(when.lastUserContains)
  ) {
    return false;
  }
  if (
    when.lastMessageContains !== undefined &&
    !(last?.content ?? "").includes(when.lastMessageContains)
  ) {
    return false;
  }
  if (when.lastMessageRole !== undefined && last?.role !== when.lastMessageRole) return false;
  if (when.model !== undefined && request.model !== when.model) return false;
  if (when.jsonMode !== undefined && request.jsonMode !== when.jsonMode) return false;
  if (when.hasTools !== undefined && request.tools.length > 0 !== when.hasTools) return false;
  if (when.temperature !== undefined && request.temperature !== when.temperature) return false;
  return true;
}
