/**
 * What the model was sent since its last answer, in one neutral form for both wire formats:
 * `tool_result: <text>` for tool results, `text: <text>` for anything else (system-reminder
 * wrappers and Keel's hook-context wrappers removed, so only the words are compared).
 */

/** Items of an Anthropic Messages request body. */
export function modelItemsFromAnthropic(body: unknown): string[] {
  const messages = (body as { messages?: unknown[] } | null)?.messages ?? [];
  const tail = afterLastAssistant(messages as Array<{ role?: string; content?: unknown }>);
  const items: string[] = [];
  for (const m of tail) {
    if (typeof m.content === "string") {
      items.push(...textItems(m.content));
      continue;
    }
    for (const block of (m.content as Array<Record<string, unknown>>) ?? []) {
      if (block.type === "tool_result") {
        items.push(`tool_result: ${blockText(block.content)}`);
      } else if (block.type === "text" && typeof block.text === "string") {
        items.push(...textItems(block.text));
      }
    }
  }
  return items;
}

/** Items of a DeepSeek (OpenAI chat) request's messages. */
export function modelItemsFromChat(
  messages: ReadonlyArray<{ role: string; content?: unknown }>,
): string[] {
  const items: string[] = [];
  for (const m of afterLastAssistant(messages)) {
    const text = typeof m.content === "string" ? m.content : "";
    if (m.role === "tool") {
      const [head, ...contexts] = splitHookBlocks(text);
      items.push(`tool_result: ${head}`);
      for (const c of contexts) items.push(`text: ${c}`);
    } else if (m.role === "user") {
      items.push(...textItems(text));
    }
  }
  return items;
}

function afterLastAssistant<T extends { role?: string }>(messages: readonly T[]): T[] {
  let last = -1;
  for (const [i, m] of messages.entries()) if (m.role === "assistant") last = i;
  return messages.slice(last + 1);
}

function blockText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((b: { type?: string; text?: string }) => (b.type === "text" ? (b.text ?? "") : ""))
      .join("");
  }
  return "";
}

const WRAPPED = /<(system-reminder|hook-context)[^>]*>\n?([\s\S]*?)\n?<\/\1>/g;

/** A text split into its wrapped parts and what lies between them. */
function textItems(text: string): string[] {
  const out: string[] = [];
  let at = 0;
  for (const m of text.matchAll(WRAPPED)) {
    const before = text.slice(at, m.index).trim();
    if (before) out.push(`text: ${before}`);
    out.push(`text: ${(m[2] ?? "").trim()}`);
    at = (m.index ?? 0) + m[0].length;
  }
  const rest = text.slice(at).trim();
  if (rest) out.push(`text: ${rest}`);
  return out;
}

/** A tool message's own output, then each hook block appended to it. */
function splitHookBlocks(text: string): string[] {
  const parts = textItems(text).map((t) => t.slice("text: ".length));
  const first = text.trimStart().startsWith("<") ? "" : (parts.shift() ?? "");
  return [first, ...parts];
}
