/**
 * The wire shapes of streamed chunks and usage, parsed once at the boundary, and the mapping of
 * DeepSeek's usage fields (with the OpenAI fallbacks) to Keel's `Usage`.
 */
import { z } from "zod";
import type { FinishReason, Usage } from "./types.js";

const toolCallDelta = z.object({
  index: z.number().int().nonnegative().optional(),
  id: z.string().nullish(),
  function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});

/** DeepSeek/OpenAI usage object (every field optional: providers differ). */
export const wireUsage = z.object({
  prompt_tokens: z.number().nullish(),
  completion_tokens: z.number().nullish(),
  prompt_cache_hit_tokens: z.number().nullish(),
  prompt_cache_miss_tokens: z.number().nullish(),
  prompt_tokens_details: z.object({ cached_tokens: z.number().nullish() }).nullish(),
  completion_tokens_details: z.object({ reasoning_tokens: z.number().nullish() }).nullish(),
});

/** One `chat.completion.chunk`, or an error object sent in the stream. */
export const wireChunk = z.object({
  choices: z
    .array(
      z.object({
        delta: z
          .object({
            content: z.string().nullish(),
            reasoning_content: z.string().nullish(),
            tool_calls: z.array(toolCallDelta).nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: wireUsage.nullish(),
  system_fingerprint: z.string().nullish(),
  error: z.object({ message: z.string().nullish() }).nullish(),
});

/** A parsed stream chunk. */
export type WireChunk = z.infer<typeof wireChunk>;

/** Maps DeepSeek usage fields to `Usage`, falling back to `prompt_tokens_details.cached_tokens`. */
export function normalizeUsage(u: z.infer<typeof wireUsage>): Usage {
  const hitFromDetails = u.prompt_tokens_details?.cached_tokens ?? undefined;
  const hit = u.prompt_cache_hit_tokens ?? hitFromDetails ?? 0;
  const prompt = u.prompt_tokens ?? hit + (u.prompt_cache_miss_tokens ?? 0);
  const miss = u.prompt_cache_miss_tokens ?? Math.max(0, prompt - hit);
  return {
    promptTokens: prompt,
    cacheHitTokens: hit,
    cacheMissTokens: miss,
    completionTokens: u.completion_tokens ?? 0,
    reasoningTokens: u.completion_tokens_details?.reasoning_tokens ?? 0,
  };
}

const FINISH_REASONS: readonly FinishReason[] = [
  "stop",
  "length",
  "tool_calls",
  "content_filter",
  "insufficient_system_resource",
];

/** Maps a wire finish_reason to `FinishReason` (the legacy `function_call` means tool calls). */
export function normalizeFinishReason(value: string): FinishReason {
  if (value === "function_call") return "tool_calls";
  return FINISH_REASONS.find((r) => r === value) ?? "stop";
}

/**
 * Extracts a one-line message from an error body `{"error":{"message"}}`, or the text itself.
 * `urlOrigin` says where the base URL was set, so a web page's answer names what to fix.
 */
export function errorBodyMessage(text: string, status?: number, urlOrigin?: string): string {
  let message = text;
  try {
    const parsed = z
      .object({ error: z.union([z.object({ message: z.string() }), z.string()]) })
      .safeParse(JSON.parse(text));
    if (parsed.success) {
      message =
        typeof parsed.data.error === "string" ? parsed.data.error : parsed.data.error.message;
    }
  } catch {
    // not JSON: keep the raw text
  }
  // A web page (a proxy's error page, a base URL that is not the API): its title says enough.
  if (/^\s*<(!doctype html|html)\b/i.test(message)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(message)?.[1]?.replace(/\s+/g, " ").trim();
    const page = `the endpoint answered with an HTML page${title ? ` ("${title.slice(0, 120)}")` : ""}`;
    // A gateway's error page (502, 503) is the server's trouble, not a wrong base URL.
    return status === undefined || status < 500
      ? `${page}, not the API; is the base URL${urlOrigin ? ` (${urlOrigin})` : ""} right (often it ends in /v1)?`
      : page;
  }
  const line = message.replace(/\s+/g, " ").trim();
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
