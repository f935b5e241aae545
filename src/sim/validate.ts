/**
 * Validates a chat request the way DeepSeek does (string content only, tool name pattern, at most
 * 128 tools, JSON mode needs the word "json"), producing the parsed request or a 400 message.
 */
import { z } from "zod";
import type { ChatMessage } from "../llm/index.js";
import { modelTakesImages } from "../llm/index.js";

/** A validated request, reduced to what the simulator uses. */
export interface SimChatRequest {
  model: string;
  messages: ChatMessage[];
  /** Tool specs as parsed objects, in the order sent. */
  tools: unknown[];
  stream: boolean;
  jsonMode: boolean;
  /** False only when the request switches thinking off (`thinking: {type: "disabled"}`). */
  thinking: boolean;
  /** The sampling temperature sent, or null. */
  temperature: number | null;
  /** `max_tokens` sent, or null. */
  maxTokens: number | null;
}

/** Validation result: the request or a DeepSeek-style error. */
export type ValidationResult =
  | { ok: true; request: SimChatRequest }
  | { ok: false; status: number; message: string; type: string };

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_TOOLS = 128;

const toolCall = z.object({
  id: z.string(),
  type: z.literal("function").optional(),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

const message = z.object({
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: z.string().nullish(),
  reasoning_content: z.string().nullish(),
  tool_calls: z.array(toolCall).nullish(),
  tool_call_id: z.string().nullish(),
  name: z.string().optional(),
});

const body = z.object({
  model: z.string().min(1),
  messages: z.array(z.unknown()).min(1),
  tools: z.array(z.unknown()).nullish(),
  stream: z.boolean().nullish(),
  response_format: z.object({ type: z.enum(["text", "json_object"]) }).nullish(),
  thinking: z.object({ type: z.enum(["enabled", "disabled"]) }).nullish(),
  // DeepSeek V4 takes high and max, and maps low and medium to high itself.
  reasoning_effort: z.enum(["low", "medium", "high", "max"]).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  max_tokens: z.int().positive().nullish(),
});

const toolSpec = z.object({
  type: z.literal("function"),
  function: z.object({
    name: z.string(),
    description: z.string().optional(),
    parameters: z.unknown().optional(),
  }),
});

/** Validates a parsed JSON body. */
export function validateRequest(json: unknown): ValidationResult {
  const parsed = body.safeParse(json);
  if (!parsed.success) return deserializeError(parsed.error.issues[0]);
  const messages: ChatMessage[] = [];
  const vision = modelTakesImages(parsed.data.model);
  for (const [i, raw] of parsed.data.messages.entries()) {
    const result = toMessage(raw, i, vision);
    if (typeof result === "string") return invalid(result);
    messages.push(result);
  }
  const pairing = checkToolPairing(messages);
  if (pairing) return invalid(pairing);
  const tools = parsed.data.tools ?? [];
  if (tools.length > MAX_TOOLS) {
    return invalid(
      `Invalid 'tools': array too long. Expected at most ${MAX_TOOLS} tools, got ${tools.length}.`,
    );
  }
  for (const [i, raw] of tools.entries()) {
    const spec = toolSpec.safeParse(raw);
    if (!spec.success) return deserializeError(spec.error.issues[0], `tools[${i}]`);
    if (!TOOL_NAME.test(spec.data.function.name)) {
      return invalid(
        `Invalid 'tools[${i}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]{1,64}$'.`,
      );
    }
  }
  const jsonMode = parsed.data.response_format?.type === "json_object";
  if (jsonMode && !messages.some((m) => /json/i.test(m.content ?? ""))) {
    return invalid(
      "Prompt must contain the word 'json' in some form to use 'response_format' of type 'json_object'.",
    );
  }
  return {
    ok: true,
    request: {
      model: parsed.data.model,
      messages,
      tools,
      stream: parsed.data.stream === true,
      jsonMode,
      thinking: parsed.data.thinking?.type !== "disabled",
      temperature: parsed.data.temperature ?? null,
      maxTokens: parsed.data.max_tokens ?? null,
    },
  };
}

/**
 * Tool results must answer the tool calls of the assistant message just before them, all of
 * them, before anything else is said: the API rejects any other order.
 */
function checkToolPairing(messages: readonly ChatMessage[]): string | null {
  let pending = new Set<string>();
  const insufficient =
    "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. (insufficient tool messages following tool_calls message)";
  for (const [i, m] of messages.entries()) {
    if (m.role === "tool") {
      if (!pending.delete(m.tool_call_id ?? "")) {
        return `Messages with role 'tool' must be a response to a preceding message with 'tool_calls' (messages[${i}])`;
      }
      continue;
    }
    if (pending.size > 0) return `${insufficient} (messages[${i}])`;
    if (m.role === "assistant" && m.tool_calls?.length)
      pending = new Set(m.tool_calls.map((c) => c.id));
  }
  return pending.size > 0 ? insufficient : null;
}

/** An OpenAI-compatible content part: text, or an image as a data: URL of a sent format. */
const contentPart = z.union([
  z.object({ type: z.literal("text"), text: z.string() }),
  z.object({
    type: z.literal("image_url"),
    image_url: z.object({
      url: z.string().regex(/^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+=*$/, {
        message: "expected a data:image/(png|jpeg|gif|webp);base64 URL",
      }),
    }),
  }),
]);

/**
 * A user message's content-part array, flattened to its text and its images. DeepSeek's own
 * models take none (reference: content must be a string); `vision` models in data/models.json
 * (the simulator's `keel-sim-vision`) take them, as an OpenAI-compatible vision endpoint does.
 */
function contentParts(
  raw: { role?: unknown; content: unknown[] },
  where: string,
  vision: boolean,
): { text: string; images: string[] } | string {
  if (!vision || raw.role !== "user") {
    return `Failed to deserialize the JSON body into the target type: ${where}.content: invalid type: sequence, expected a string`;
  }
  const texts: string[] = [];
  const images: string[] = [];
  for (const [k, part] of raw.content.entries()) {
    const p = contentPart.safeParse(part);
    if (!p.success) {
      const issue = p.error.issues[0];
      return `Invalid '${where}.content[${k}]': ${issue?.message ?? "invalid content part"}`;
    }
    if (p.data.type === "text") texts.push(p.data.text);
    else images.push(p.data.image_url.url);
  }
  return { text: texts.join("\n"), images };
}

function toMessage(raw: unknown, i: number, vision: boolean): ChatMessage | string {
  const where = `messages[${i}]`;
  let parts: { text: string; images: string[] } | null = null;
  if (raw !== null && typeof raw === "object" && "content" in raw && Array.isArray(raw.content)) {
    const flat = contentParts(raw as { content: unknown[] }, where, vision);
    if (typeof flat === "string") return flat;
    parts = flat;
    raw = { ...raw, content: flat.text };
  }
  const parsed = message.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.length ? `.${issue.path.join(".")}` : "";
    return `Failed to deserialize the JSON body into the target type: ${where}${field}: ${issue?.message ?? "invalid"}`;
  }
  const m = parsed.data;
  if (m.role !== "assistant" && typeof m.content !== "string") {
    return `Failed to deserialize the JSON body into the target type: ${where}: missing field \`content\``;
  }
  if (m.role === "tool" && !m.tool_call_id) {
    return `Failed to deserialize the JSON body into the target type: ${where}: missing field \`tool_call_id\``;
  }
  const out: ChatMessage = { role: m.role, content: m.content ?? null };
  if (parts !== null && parts.images.length > 0) out.images = parts.images;
  // Present-but-empty is kept: passing back "" is how a thinking turn without reasoning returns.
  if (typeof m.reasoning_content === "string") out.reasoning_content = m.reasoning_content;
  if (m.tool_calls?.length) {
    out.tool_calls = m.tool_calls.map((c) => ({
      id: c.id,
      type: "function",
      function: c.function,
    }));
  }
  if (m.tool_call_id) out.tool_call_id = m.tool_call_id;
  return out;
}

function deserializeError(issue: z.core.$ZodIssue | undefined, prefix = ""): ValidationResult {
  const path = [prefix, ...(issue?.path ?? []).map(String)].filter(Boolean).join(".");
  return invalid(
    `Failed to deserialize the JSON body into the target type: ${path ? `${path}: ` : ""}${issue?.message ?? "invalid"}`,
  );
}

function invalid(message: string): ValidationResult {
  return { ok: false, status: 400, message, type: "invalid_request_error" };
}

/** DeepSeek's answer when a thinking-mode tool turn comes back without its reasoning. */
export const REASONING_NOT_PASSED_BACK =
  "The `reasoning_content` in the thinking mode must be passed back to the API.";

/**
 * The index of the first assistant message that carries tool calls the simulator answered in
 * thinking mode but comes back without `reasoning_content` (DeepSeek answers such requests
 * 400), or null when every such message kept it.
 */
export function reasoningNotPassedBack(
  request: SimChatRequest,
  thinkingCallIds: ReadonlySet<string>,
): number | null {
  if (!request.thinking || thinkingCallIds.size === 0) return null;
  for (const [i, m] of request.messages.entries()) {
    if (m.role !== "assistant" || m.reasoning_content !== undefined) continue;
    if (m.tool_calls?.some((c) => thinkingCallIds.has(c.id))) return i;
  }
  return null;
}
