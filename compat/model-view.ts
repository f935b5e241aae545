/**
 * What the model was sent since its last answer, in one neutral form for both wire formats. Each
 * item names its CHANNEL — the message that carries the text — then the text:
 * - `tool_result: …` a tool result (its output, or hook text put inside it);
 * - `text: …` text in a user message (the prompt, or hook text added to it);
 * - `system: …` a `role: "system"` message (Claude Code 2.1.332 sends hook context so);
 * - `hook: …` a `user` message made only of hook output: Keel's `<hook-context>` blocks (Keel's
 *   channel for hook context), or Claude Code's own (a Stop hook's feedback); compare.ts takes
 *   Keel's as the peer's system message where the peer sends one there.
 * System-reminder and hook-context wrappers are removed, so only the words are compared.
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
    const channel = m.role === "system" ? "system" : onlyHookOutput(m.content) ? "hook" : "text";
    if (typeof m.content === "string") {
      items.push(...textItems(m.content, channel));
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
        items.push(...textItems(block.text, channel));
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
      // Hook text inside a tool message is in the tool result's channel: each its own item.
      const [head, ...contexts] = splitHookBlocks(text);
      items.push(`tool_result: ${canonicalToolOutput("keel", head ?? "")}`);
      for (const c of contexts) items.push(`tool_result: ${c}`);
    } else if (m.role === "user") {
      items.push(...textItems(text, onlyHookBlocks(text) ? "hook" : "text"));
    } else if (m.role === "system") {
      items.push(...textItems(text, "system"));
    }
  }
  return items;
}

/**
 * Whether an Anthropic user message holds nothing but hook output (Claude Code sends a Stop
 * hook's feedback so): every text part, unwrapped, is hook text, and there is no tool result.
 */
function onlyHookOutput(content: unknown): boolean {
  const blocks =
    typeof content === "string"
      ? [{ type: "text", text: content }]
      : ((content as Array<{ type?: string; text?: unknown }> | null) ?? []);
  if (blocks.length === 0 || blocks.some((b) => b.type !== "text")) return false;
  const parts = blocks.flatMap((b) =>
    textItems(String(b.text ?? "")).map((t) => splitItem(t).text),
  );
  return parts.length > 0 && parts.every((p) => HOOK_PREAMBLE.test(p) || HOOK_PARAGRAPH.test(p));
}

/** How Claude Code 2.1.332 (and Keel, src/agent/hook-adapter/text.ts) opens a hook's output. */
const HOOK_PREAMBLE = /^The text below is the output of a hook\b/;

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

/** The channels a model-view item can name (see the head of this file). */
export type Channel = "tool_result" | "text" | "system" | "hook";

/** An item's channel and text. */
export function splitItem(item: string): { channel: string; text: string } {
  const at = item.indexOf(": ");
  return at < 0
    ? { channel: "", text: item }
    : { channel: item.slice(0, at), text: item.slice(at + 2) };
}

/** A text split into its wrapped parts and what lies between them, each as a `channel` item. */
function textItems(text: string, channel: Channel = "text"): string[] {
  const out: string[] = [];
  let at = 0;
  for (const m of text.matchAll(WRAPPED)) {
    const before = text.slice(at, m.index).trim();
    if (before) out.push(`${channel}: ${before}`);
    out.push(`${channel}: ${(m[2] ?? "").trim()}`);
    at = (m.index ?? 0) + m[0].length;
  }
  const rest = text.slice(at).trim();
  if (rest) out.push(`${channel}: ${rest}`);
  return out;
}

/** Whether a message is nothing but Keel's `<hook-context>` blocks (Keel's hook message). */
function onlyHookBlocks(text: string): boolean {
  return /<hook-context[^>]*>/.test(text) && text.replace(HOOK_BLOCKS, "").trim() === "";
}

const HOOK_BLOCKS = /<hook-context[^>]*>[\s\S]*?<\/hook-context>/g;

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
