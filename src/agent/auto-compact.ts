/**
 * Automatic compaction (docs/architecture.md "The cache-first agent"): when a response's `usage.prompt_tokens` reaches the
 * threshold — by default a fraction of the model's context window (data/models.json), or
 * `compaction.thresholdTokens` from settings — the session compacts before its next request.
 * A provider error saying the context is too long triggers the same, then the request is
 * retried once. Compaction stays the one sanctioned rewrite: a new turn holding a summary.
 */

import type { ChatMessage } from "../llm/index.js";
import { loadModelTable } from "../llm/index.js";
import { AppendOnlyLog } from "./log.js";
import { parseRendered } from "./render.js";

/** The share of the context window at which a session compacts by default. */
export const AUTO_COMPACT_FRACTION = 0.8;

/** Context window assumed for a model missing from the table. */
export const FALLBACK_CONTEXT_TOKENS = 128_000;

/** What the session compacts at (null: automatic compaction is off). */
export function autoCompactThreshold(
  model: string,
  settings: { auto?: boolean; thresholdTokens?: number },
): number | null {
  if (settings.auto === false) return null;
  if (settings.thresholdTokens !== undefined) return settings.thresholdTokens;
  return Math.floor(contextWindow(model) * AUTO_COMPACT_FRACTION);
}

/** The model's context window in tokens (data/models.json), or a conservative default. */
export function contextWindow(model: string): number {
  const table = loadModelTable();
  if (!table.ok) return FALLBACK_CONTEXT_TOKENS;
  return table.table.models[model]?.contextTokens ?? FALLBACK_CONTEXT_TOKENS;
}

/**
 * Whether a provider error says the prompt is longer than the context window (DeepSeek's
 * "This model's maximum context length is N tokens…", and the wordings of other
 * OpenAI-compatible servers).
 */
export function isContextLengthError(message: string): boolean {
  return /maximum context length|context[ _]length[ _]exceeded|context window|prompt is too long|too many tokens|reduce the length of the messages/i.test(
    message,
  );
}

/** The user message that resumes work after a compaction in the middle of a turn. */
export const CONTINUE_AFTER_COMPACTION =
  "(The conversation was compacted to fit the context window.) Continue the current task from the summary above; do not repeat work already done.";

/**
 * A smaller view of the log for the summary request after a context-length error: long message
 * contents are cut to `maxChars` (head and tail), reasoning is left out, and at `level` 2 only
 * the newest third of the conversation (from a user message) is kept. Never stored: compaction
 * replaces the log right after.
 */
export function shrunkView(stored: readonly string[], level: 1 | 2, maxChars = 2000): string[] {
  let msgs = stored.map(parseRendered).filter((m): m is ChatMessage => m !== null);
  if (level === 2) {
    const from = Math.floor((msgs.length * 2) / 3);
    let start = msgs.findIndex((m, i) => i >= from && m.role === "user");
    if (start < 0) start = msgs.findLastIndex((m) => m.role === "user");
    if (start > 0) msgs = msgs.slice(start);
  }
  const log = new AppendOnlyLog();
  for (const m of msgs) {
    const out: ChatMessage = { ...m, content: cut(m.content, maxChars) };
    if (out.reasoning_content !== undefined) out.reasoning_content = "";
    log.append(out);
  }
  return [...log.messages()];
}

function cut(text: string | null, max: number): string | null {
  if (text === null || text.length <= max) return text;
  const half = Math.floor(max / 2);
  return `${text.slice(0, half)}\n[… ${text.length - max} characters left out …]\n${text.slice(-half)}`;
}

/** Tool results longer than this (characters) are sent trimmed by default. */
export const DEFAULT_TOOL_RESULT_MAX_CHARS = 60_000;

/**
 * A tool result as the model gets it: whole when it fits, else its head and tail around a note.
 * Applied once, when the result is rendered into the log, so its bytes never change afterwards.
 */
export function trimToolResult(content: string, maxChars: number): string {
  if (content.length <= maxChars) return content;
  const head = Math.floor(maxChars * 0.7);
  const tail = maxChars - head;
  return `${content.slice(0, head)}\n\n[… ${content.length - maxChars} characters of this result were left out to save context; the whole output is kept in the session file …]\n\n${content.slice(-tail)}`;
}
