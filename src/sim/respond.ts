/**
 * Renders a resolved reply in DeepSeek's wire format: the SSE chunk sequence of a streamed
 * completion (role delta, reasoning deltas, content deltas, tool-call deltas with argument
 * fragments, usage on the finishing chunk) or one non-streamed completion object.
 */
import { SIMULATOR_FINGERPRINT } from "../llm/index.js";
import type { ResolvedReply } from "./resolve-reply.js";

/** DeepSeek's usage object. */
export interface WireUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
  completion_tokens_details: { reasoning_tokens: number };
  prompt_cache_hit_tokens: number;
  prompt_cache_miss_tokens: number;
}

/** Identity of one completion. */
export interface CompletionMeta {
  id: string;
  created: number;
  model: string;
  /** Tool-call ids for calls the script left without one. */
  callId: (index: number) => string;
}

const FINGERPRINT = SIMULATOR_FINGERPRINT;
const DEFAULT_CHUNK_CHARS = 16;

/** The JSON payloads of every `data:` line of a streamed reply, `[DONE]` excluded. */
export function streamPayloads(
  reply: ResolvedReply,
  meta: CompletionMeta,
  usage: WireUsage,
): string[] {
  const chunk = (delta: object, finish: string | null = null, extra: object = {}) =>
    JSON.stringify({
      id: meta.id,
      object: "chat.completion.chunk",
      created: meta.created,
      model: meta.model,
      system_fingerprint: FINGERPRINT,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...extra,
    });
  const size = reply.chunkChars ?? DEFAULT_CHUNK_CHARS;
  const out: string[] = [];
  const thinking = reply.thinking;
  out.push(
    chunk(
      thinking
        ? { role: "assistant", content: null, reasoning_content: "" }
        : { role: "assistant", content: "" },
    ),
  );
  for (const piece of pieces(reply.reasoning, size)) {
    out.push(chunk({ content: null, reasoning_content: piece }));
  }
  for (const piece of pieces(reply.text, size)) out.push(chunk({ content: piece }));
  for (const [index, call] of reply.toolCalls.entries()) {
    const id = call.id ?? meta.callId(index);
    out.push(
      chunk({
        tool_calls: [{ index, id, type: "function", function: { name: call.name, arguments: "" } }],
      }),
    );
    // Several fragments per call, as the real API streams them.
    const fragment = Math.max(1, Math.min(size, Math.ceil([...call.arguments].length / 3)));
    for (const piece of pieces(call.arguments, fragment)) {
      out.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  }
  out.push(chunk({ content: "" }, reply.finishReason, { usage }));
  return out;
}

/** The body of a non-streamed completion. */
export function completionBody(
  reply: ResolvedReply,
  meta: CompletionMeta,
  usage: WireUsage,
): string {
  const message: Record<string, unknown> = { role: "assistant", content: reply.text };
  if (reply.thinking) message.reasoning_content = reply.reasoning;
  if (reply.toolCalls.length > 0) {
    message.tool_calls = reply.toolCalls.map((c, index) => ({
      id: c.id ?? meta.callId(index),
      type: "function",
      function: { name: c.name, arguments: c.arguments },
    }));
  }
  return JSON.stringify({
    id: meta.id,
    object: "chat.completion",
    created: meta.created,
    model: meta.model,
    system_fingerprint: FINGERPRINT,
    choices: [{ index: 0, message, logprobs: null, finish_reason: reply.finishReason }],
    usage,
  });
}

/** DeepSeek's error body. */
export function errorBody(message: string, type: string): string {
  return JSON.stringify({ error: { message, type, param: null, code: null } });
}

/** Splits text into pieces of `size` code points (never inside a surrogate pair). */
function pieces(text: string, size: number): string[] {
  if (text === "") return [];
  const chars = [...text];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out;
}
