/**
 * Renders a request into the prompt text segments the model would see, in a deterministic
 * DeepSeek-like chat template: tool specs first, then the messages. Each segment starts at a
 * special-token boundary (or is the first), so tokenizing segments separately and concatenating
 * matches tokenizing the whole prompt closely, and lets the simulator tokenize each distinct
 * message once for a whole session.
 */
import type { ChatMessage } from "../llm/index.js";

const BOS = "<｜begin▁of▁sentence｜>";
const USER = "<｜User｜>";
const ASSISTANT = "<｜Assistant｜>";
const EOS = "<｜end▁of▁sentence｜>";

/**
 * The prompt segments of a request. Tool specs are rendered from the parsed objects with their
 * keys in the order sent: re-ordering or re-wording a spec changes the prompt, as it does upstream.
 */
export function renderPrompt(request: { tools: unknown[]; messages: ChatMessage[] }): string[] {
  let head = BOS;
  if (request.tools.length > 0) {
    head += `## Tools\n\n${request.tools.map((t) => JSON.stringify(t)).join("\n")}\n\n`;
  }
  const segments = [head];
  for (const m of request.messages) segments.push(renderMessage(m));
  const last = request.messages[request.messages.length - 1];
  if (last?.role !== "assistant") segments.push(ASSISTANT);
  return segments;
}

function renderMessage(m: ChatMessage): string {
  const content = m.content ?? "";
  switch (m.role) {
    case "system":
      return `${content}\n\n`;
    case "user":
      // Each image counts as a marker naming its size: a different image is a different prompt.
      return USER + content + (m.images ?? []).map((u) => `<image ${u.length}>`).join("");
    case "tool":
      return `<｜tool▁output▁begin｜>${content}<｜tool▁output▁end｜>`;
    case "assistant": {
      let out = ASSISTANT;
      if (m.reasoning_content) out += `<think>${m.reasoning_content}</think>`;
      out += content;
      if (m.tool_calls?.length) {
        out += "<｜tool▁calls▁begin｜>";
        for (const c of m.tool_calls) {
          out += `<｜tool▁call▁begin｜>function<｜tool▁sep｜>${c.function.name}\n\`\`\`json\n${c.function.arguments}\n\`\`\`<｜tool▁call▁end｜>`;
        }
        out += "<｜tool▁calls▁end｜>";
      }
      return out + EOS;
    }
  }
}
