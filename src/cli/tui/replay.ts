/**
 * What a resumed session looked like: the stored message bytes (the agent's log) turned back into
 * transcript entries, so `keel --resume` and /resume show the conversation being continued
 * instead of an empty screen. Display only; the bytes themselves are the agent's.
 */
import { z } from "zod";
import { withoutAddedContext } from "../../session/index.js";
import type { EntryInit } from "./transcript.js";

const toolCall = z.object({
  id: z.string(),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

const message = z.object({
  role: z.string(),
  content: z.string().nullish(),
  tool_calls: z.array(toolCall).nullish(),
  tool_call_id: z.string().nullish(),
});

const COMPACTED = "This session was compacted.";

/** Options of {@link replayEntries}. */
export interface ReplayOptions {
  /** How many of the latest user turns to show (default 5). */
  maxTurns?: number;
}

/** The entries that show the last turns of a stored conversation, oldest first. */
export function replayEntries(bytes: readonly string[], opts: ReplayOptions = {}): EntryInit[] {
  const messages = bytes.flatMap((b) => {
    try {
      const parsed = message.safeParse(JSON.parse(b));
      return parsed.success ? [parsed.data] : [];
    } catch {
      return [];
    }
  });
  const results = new Map<string, string>();
  for (const m of messages) {
    if (m.role === "tool" && m.tool_call_id) results.set(m.tool_call_id, m.content ?? "");
  }
  const turns: EntryInit[][] = [];
  for (const m of messages) {
    if (m.role === "user") {
      const text = withoutAddedContext(m.content ?? "");
      if (text.startsWith(COMPACTED)) {
        const lines = text.split("\n").filter((l) => l.trim() !== "");
        const shown = lines.slice(1, 7);
        if (lines.length > 7) shown.push(`… ${lines.length - 7} more lines`);
        turns.push([{ kind: "info", title: "Summary of the earlier conversation", lines: shown }]);
      } else if (text !== "") {
        turns.push([{ kind: "user", text }]);
      }
      // A user message that was only hook context (a Stop hook's continuation) starts no turn.
      continue;
    }
    const turn = turns[turns.length - 1];
    if (!turn || m.role !== "assistant") continue;
    const text = (m.content ?? "").trim();
    if (text !== "") turn.push({ kind: "assistant", text, continued: false });
    for (const call of m.tool_calls ?? []) {
      turn.push({
        kind: "tool",
        card: {
          id: call.id,
          name: call.function.name,
          input: parseArguments(call.function.arguments),
          status: "ok",
          startedAt: 0,
          historic: true,
          ...(results.has(call.id) ? { content: results.get(call.id) } : {}),
        },
      });
    }
  }
  const max = opts.maxTurns ?? 5;
  const hidden = Math.max(0, turns.length - max);
  const head: EntryInit[] =
    hidden > 0
      ? [{ kind: "notice", level: "info", text: `… ${hidden} earlier turn(s) not shown` }]
      : [];
  return [...head, ...turns.slice(hidden).flat()];
}

function parseArguments(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    const parsed = z.record(z.string(), z.unknown()).safeParse(value);
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}
