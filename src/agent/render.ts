/**
 * Renders chat messages to their canonical bytes, once. The agent stores these strings and
 * replays them verbatim, so a message's bytes can never drift between requests.
 */
import { z } from "zod";
import type { ChatMessage, ToolCall } from "../llm/index.js";

/** Builds the message object with a fixed key order; optional fields only when present. */
function canonical(msg: ChatMessage): Record<string, unknown> {
  const out: Record<string, unknown> = { role: msg.role, content: contentOf(msg) };
  if (msg.reasoning_content !== undefined) out.reasoning_content = msg.reasoning_content;
  if (msg.tool_calls !== undefined && msg.tool_calls.length > 0) {
    out.tool_calls = msg.tool_calls.map((c: ToolCall) => ({
      id: c.id,
      type: "function",
      function: { name: c.function.name, arguments: c.function.arguments },
    }));
  }
  if (msg.tool_call_id !== undefined) out.tool_call_id = msg.tool_call_id;
  return out;
}

/** The text, or with images the OpenAI-compatible parts: the text first, then each image. */
function contentOf(msg: ChatMessage): unknown {
  if (msg.images === undefined || msg.images.length === 0) return msg.content;
  return [
    { type: "text", text: msg.content ?? "" },
    ...msg.images.map((url) => ({ type: "image_url", image_url: { url } })),
  ];
}

/** The canonical JSON of one chat message: fixed key order, no whitespace. */
export function renderMessage(msg: ChatMessage): string {
  return JSON.stringify(canonical(msg));
}

const toolCallSchema = z.object({
  id: z.string(),
  type: z.literal("function"),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

const partsSchema = z.tuple(
  [z.object({ type: z.literal("text"), text: z.string() })],
  z.object({ type: z.literal("image_url"), image_url: z.object({ url: z.string() }) }),
);

const messageSchema = z.object({
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: z.union([z.string().nullable(), partsSchema]),
  reasoning_content: z.string().optional(),
  tool_calls: z.array(toolCallSchema).optional(),
  tool_call_id: z.string().optional(),
});

/**
 * Parses stored bytes back into a message. Returns null when the bytes are not a message or
 * are not in canonical form (re-rendering would change them), so replayed bytes stay exact.
 */
export function parseRendered(bytes: string): ChatMessage | null {
  let raw: unknown;
  try {
    raw = JSON.parse(bytes);
  } catch {
    return null;
  }
  const parsed = messageSchema.safeParse(raw);
  if (!parsed.success) return null;
  const content = parsed.data.content;
  const msg: ChatMessage = Array.isArray(content)
    ? {
        role: parsed.data.role,
        content: content[0].text,
        images: content.slice(1).map((p) => (p as { image_url: { url: string } }).image_url.url),
      }
    : { role: parsed.data.role, content };
  if (parsed.data.reasoning_content !== undefined) {
    msg.reasoning_content = parsed.data.reasoning_content;
  }
  if (parsed.data.tool_calls !== undefined) msg.tool_calls = parsed.data.tool_calls;
  if (parsed.data.tool_call_id !== undefined) msg.tool_call_id = parsed.data.tool_call_id;
  return renderMessage(msg) === bytes ? msg : null;
}
