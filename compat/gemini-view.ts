/**
 * What Gemini CLI's model saw, in the neutral form of the Qwen table (qwen-view.ts): the
 * `contents` after the last model turn without Gemini's own session context, function
 * responses reduced to outcomes, `<hook_context>` text as its own items, user text split into
 * paragraphs.
 */
import { qwenToolItems } from "./qwen-view.js";

interface GeminiContent {
  role?: string;
  parts?: Array<{
    text?: string;
    functionCall?: { name?: string };
    functionResponse?: { name?: string; response?: Record<string, unknown> };
  }>;
}

const GEMINI_SHELL =
  /^(?:<untrusted_context>\n)?Output: ([\s\S]*?)\n(?:Exit Code: (-?\d+)\n)?[\s\S]*?Process Group PGID: \S+\n?(?:<\/untrusted_context>)?\s*$/;
const GEMINI_WRITE = /^Successfully (?:created and wrote to new file|overwrote file): /;
const GEMINI_BLOCKED = /^Tool execution blocked: ([\s\S]*)$/;

/** One function response → its outcome, then the hook text appended to it. */
export function geminiToolItems(
  name: string | undefined,
  response: Record<string, unknown>,
): string[] {
  const text =
    typeof response.output === "string"
      ? response.output
      : typeof response.error === "string"
        ? response.error
        : JSON.stringify(response);
  const [head = "", ...hooks] = text.split(/\n*<hook_context>/);
  const extra = hooks.map((h) => `text: ${h.replace(/<\/hook_context>\s*$/, "").trim()}`);
  const shell = name === "run_shell_command" ? GEMINI_SHELL.exec(head) : null;
  if (shell) {
    const out = shell[1] === "(empty)" ? "" : (shell[1] ?? "").trim();
    return [`tool_result: (output ${shell[2] ?? "0"}: ${out})`, ...extra];
  }
  if (name === "write_file" && GEMINI_WRITE.test(head)) {
    return ["tool_result: (file written)", ...extra];
  }
  if (name === "replace" && /^Successfully modified file: /.test(head)) {
    return ["tool_result: (file edited)", ...extra];
  }
  const blocked = GEMINI_BLOCKED.exec(head);
  if (blocked) return [`tool_result: (blocked: ${(blocked[1] ?? "").trim()})`, ...extra];
  return [...qwenToolItems(name === "replace" ? "edit" : name, head), ...extra];
}

/** Items of a generateContent request body. */
export function modelItemsFromGemini(body: unknown): string[] {
  const contents = (body as { contents?: GeminiContent[] } | null)?.contents ?? [];
  let last = -1;
  for (const [i, c] of contents.entries()) if (c.role === "model") last = i;
  const items: string[] = [];
  // Gemini CLI's own context (date, OS, folder listing) opens the first request.
  let inSession = false;
  for (const c of contents.slice(last + 1)) {
    for (const p of c.parts ?? []) {
      if (p.functionResponse) {
        items.push(...geminiToolItems(p.functionResponse.name, p.functionResponse.response ?? {}));
        continue;
      }
      if (typeof p.text !== "string") continue;
      if (p.text.startsWith("<session_context>")) inSession = true;
      if (inSession) {
        if (p.text.includes("</session_context>")) inSession = false;
        continue;
      }
      const text = p.text.replace(/<\/?hook_context>/g, "");
      for (const para of text.split(/\n\n+/)) {
        if (para.trim()) items.push(`text: ${para.trim()}`);
      }
    }
  }
  return items;
}
