/**
 * What the model saw, for the Qwen Code table, in one neutral form for both agents: each tool
 * result reduced to its outcome (`(output <exit>: <text>)`, `(file written)`, `(file read: …)`,
 * `(file edited)`, `(blocked: <reason>)`), text a hook appended to it as its own `text:` item,
 * and user text split into its paragraphs (Qwen appends hook context to the prompt's message,
 * Keel sends it as a block of its own). Each agent's own text is set aside, as the system
 * prompts are (Qwen's system message is never read; Keel's `system:` items are dropped): Qwen
 * 0.24's `<system-reminder>` blocks in the first user message (the skills list, its
 * environment context, the deferred-tools list, the current date; see QWEN_OWN_REMINDER).
 * Hook context Qwen 0.24 wraps in tags of its own (UserPromptSubmit's in the prompt's message,
 * SessionStart's in the system prompt) is compared by its words, placed as Keel sends it: after
 * the prompt, SessionStart's first (the channel is a documented difference, docs/hooks.md).
 */
import { canonicalToolOutput } from "./model-view.js";
import type { Observation } from "./types.js";

interface ChatMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
  tool_calls?: Array<{ id?: string; function?: { name?: string } }>;
}

const QWEN_SHELL =
  /^Command: [\s\S]*?\nOutput: ([\s\S]*?)\nError: [\s\S]*?\nExit Code: (-?\d+)\n[\s\S]*?Process Group PGID: \S+(?:\n\n([\s\S]*))?$/;
const QWEN_WRITE =
  /^Successfully (?:created and wrote to new file|overwrote file): .*?\.(?:\n\n([\s\S]*))?$/;
const QWEN_EDIT = /^The file: .* has been updated\./;

/**
 * A `<system-reminder>` Qwen Code 0.24 writes itself into the prompt's message, known by its
 * opening words (a hook's context is never wrapped so by Qwen, but only these are set aside).
 */
const QWEN_OWN_REMINDER =
  /<system-reminder>\s*(?:The following skills are available for use with the Skill tool|This is the Qwen Code\. We are setting up the context for our chat|The following tools are reachable through `tool_search`|The current date is: )[\s\S]*?<\/system-reminder>/g;

/** A Qwen user message's text without Qwen's own reminders. */
export function withoutQwenReminders(text: string): string {
  return text.replace(QWEN_OWN_REMINDER, "");
}

/** One Qwen tool message → its outcome and any hook text appended to it. */
export function qwenToolItems(tool: string | undefined, text: string): string[] {
  const extra = (ctx: string | undefined) =>
    ctx === undefined ? [] : paragraphs(ctx).map((p) => `text: ${p}`);
  const shell = tool === "run_shell_command" ? QWEN_SHELL.exec(text) : null;
  if (shell) {
    const out = shell[1] === "(empty)" ? "" : (shell[1] ?? "").trim();
    return [`tool_result: (output ${shell[2]}: ${out})`, ...extra(shell[3])];
  }
  const write = tool === "write_file" ? QWEN_WRITE.exec(text) : null;
  if (write) return ["tool_result: (file written)", ...extra(write[1])];
  if (tool === "edit" && QWEN_EDIT.test(text)) return ["tool_result: (file edited)"];
  // A read's result is the file's text; any other text is a hook's block reason.
  if (tool === "read_file" && !/^[\s\S]*\bhook\b/.test(text)) {
    return [`tool_result: (file read: ${text.replace(/\n$/, "")})`];
  }
  return [`tool_result: (blocked: ${text.trim()})`];
}

/** Items of a Qwen request: what follows the last assistant message. */
export function modelItemsFromQwen(messages: readonly ChatMessage[]): string[] {
  let last = -1;
  for (const [i, m] of messages.entries()) if (m.role === "assistant") last = i;
  const names = new Map<string, string>();
  for (const call of messages[last]?.tool_calls ?? []) {
    if (call.id !== undefined && call.function?.name) names.set(call.id, call.function.name);
  }
  const items: string[] = [];
  const promptContext: string[] = [];
  for (const m of messages.slice(last + 1)) {
    const text = typeof m.content === "string" ? m.content : "";
    if (m.role === "tool") items.push(...qwenToolItems(names.get(m.tool_call_id ?? ""), text));
    else if (m.role === "user") {
      const { rest, context } = splitPromptContext(withoutQwenReminders(text));
      items.push(...paragraphs(rest).map((p) => `text: ${p}`));
      promptContext.push(...context.flatMap(paragraphs).map((p) => `text: ${p}`));
    }
  }
  // Before the first answer: SessionStart's context (in Qwen's system prompt), then
  // UserPromptSubmit's, in the order Keel sends them after the prompt.
  const system = messages.find((m) => m.role === "system");
  const start =
    last === -1 && typeof system?.content === "string" ? sessionStartContext(system.content) : [];
  return [...items, ...start.flatMap(paragraphs).map((p) => `text: ${p}`), ...promptContext];
}

/** Qwen 0.24 wraps UserPromptSubmit context in its own tags, a part of the prompt's message. */
const PROMPT_CONTEXT =
  /<qwen:user-prompt-submit-context>\n([\s\S]*?)\n<\/qwen:user-prompt-submit-context>/g;

/** A user message's text without Qwen's UserPromptSubmit context blocks, and their texts. */
function splitPromptContext(text: string): { rest: string; context: string[] } {
  const context: string[] = [];
  const rest = text.replace(PROMPT_CONTEXT, (_all, inner: string) => {
    context.push(inner);
    return "";
  });
  return { rest, context };
}

/** Qwen 0.24 appends SessionStart context to its system prompt, in its own sentinel block. */
const START_CONTEXT =
  /<qwen:session-start-context hidden="true">\nSessionStart additional context:\n([\s\S]*?)\n<\/qwen:session-start-context>/;

function sessionStartContext(system: string): string[] {
  const m = START_CONTEXT.exec(system);
  return m?.[1] ? [m[1]] : [];
}

const KEEL_BLOCK =
  /^tool_result: Blocked by [\s\S]*? \((?:[^()]*)\): ([\s\S]*)\. The tool did not run\.$/;
/** A Gemini AfterTool block: the output withheld after the tool ran (gemini/exit.ts). */
const KEEL_POST_BLOCK = /^tool_result: Blocked after the tool ran, by hook [\s\S]*?: ([\s\S]*)$/;

/** Keel's items in the same form: block messages reduced to their reason, text split. */
export function keelItemsForQwen(items: readonly string[]): string[] {
  return items.flatMap((item) => {
    // Keel's system prompt, as Qwen's system message above, is the agent's own text.
    if (item.startsWith("system: ")) return [];
    const block = KEEL_BLOCK.exec(item) ?? KEEL_POST_BLOCK.exec(item);
    if (block) return [`tool_result: (blocked: ${block[1]})`];
    // Qwen's view compares words, not channels: Keel's hook message counts as text.
    if (item.startsWith("text: ") || item.startsWith("hook: ")) {
      return paragraphs(item.slice(6)).map((p) => `text: ${p}`);
    }
    if (item.startsWith("tool_result: ")) {
      return [`tool_result: ${canonicalToolOutput("keel", item.slice("tool_result: ".length))}`];
    }
    return [item];
  });
}

/** Keel's observation with its model view in the Qwen table's form. */
export function keelObservationForQwen(o: Observation): Observation {
  return { ...o, modelView: o.modelView.map(keelItemsForQwen) };
}

function paragraphs(text: string): string[] {
  return text
    .split(/\n\n+/)
    .map((p) => p.trim())
    .filter((p) => p !== "");
}
