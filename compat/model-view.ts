/**
 * What the model was sent since its last answer, in one neutral form for both wire formats:
 * `tool_result: <text>` for tool results, `text: <text>` for anything else (system-reminder
 * wrappers and Keel's hook-context wrappers removed, so only the words are compared).
 *
 * A tool's own words are each agent's own (Keel's tools are not Claude's tools, and their
 * descriptions tell the model what to expect), so the output of a tool that ran is reduced to
 * `(output <exit>: <text>)` by `canonicalToolOutput`; text a hook caused is compared as is.
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
        const text = blockText(block.content);
        // Output of a command that ran fine is the bare output in Claude; errors are worded.
        const ran =
          block.is_error !== true && !/^(\(Bash completed|File created|The file |\d+\t)/.test(text);
        items.push(
          `tool_result: ${ran ? `(output 0: ${text.trim()})` : canonicalToolOutput("claude", text)}`,
        );
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
      items.push(`tool_result: ${canonicalToolOutput("keel", head ?? "")}`);
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

/** Paragraphs an agent adds for hooks (`PreToolUse:Bash hook additional context: …`). */
export const HOOK_PARAGRAPH =
  /^(\w+)(:\w+)? (hook (success|additional context|error|blocking error|feedback)|operation blocked by hook)\b/;

/** The paragraphs of a text that came from hooks (Claude merges them into other reminders). */
export function hookParagraphs(text: string): string[] {
  return text
    .split(/\n\n(?=\S)/)
    .map((p) => p.trim())
    .filter((p) => HOOK_PARAGRAPH.test(p));
}

/** Tool output in a neutral form: the agents word the same outcome differently. */
export function canonicalToolOutput(agent: "claude" | "keel", text: string): string {
  if (agent === "claude") {
    if (text === "(Bash completed with no output)") return "(output 0: )";
    const failed = /^Exit code (\d+)\n?([\s\S]*)$/.exec(text);
    if (failed) return `(output ${failed[1]}: ${failed[2]?.trim()})`;
    if (/^File created successfully at: /.test(text)) return "(file written)";
    if (/^The file .* has been updated successfully/.test(text)) return "(file edited)";
    if (/^\d+\t/.test(text)) return `(file read: ${numbered(text)})`;
    return text;
  }
  const exit = /^([\s\S]*?)\n?\[exit code: (\d+)\]$/.exec(text);
  if (exit) {
    const body = exit[1] === "(no output)" ? "" : (exit[1] ?? "").trim();
    return `(output ${exit[2]}: ${body})`;
  }
  if (/^(Created|Wrote|Overwrote) .*\(\d+ lines?, \d+ bytes?\)\.$/.test(text))
    return "(file written)";
  if (/^Edited .*: replaced \d+ occurrences?/.test(text)) return "(file edited)";
  if (/^\d+\t/.test(text)) return `(file read: ${numbered(text)})`;
  return text;
}

/** Numbered file lines without the line numbers and without an empty last line. */
function numbered(text: string): string {
  return text
    .split("\n")
    .map((l) => l.replace(/^\d+\t/, ""))
    .join("\n")
    .replace(/\n$/, "");
}
