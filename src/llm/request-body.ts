/**
 * Builds the JSON body of a chat request by concatenation: the messages are replayed as the exact
 * bytes the agent rendered once, so consecutive requests share a byte-identical prefix.
 */
import type { ChatRequest } from "./types.js";

/** Options for building a request body. */
export interface RequestBodyOptions {
  stream: boolean;
}

/** Renders the request body; `messages` and `tools` are inserted verbatim, never re-serialized. */
export function buildRequestBody(req: ChatRequest, options: RequestBodyOptions): string {
  let body = `{"model":${JSON.stringify(req.model)},"messages":[${req.messages.join(",")}]`;
  if (req.tools !== undefined) body += `,"tools":${req.tools}`;
  if (options.stream) body += `,"stream":true,"stream_options":{"include_usage":true}`;
  else body += `,"stream":false`;
  if (req.temperature !== undefined) body += `,"temperature":${JSON.stringify(req.temperature)}`;
  if (req.maxTokens !== undefined) body += `,"max_tokens":${JSON.stringify(req.maxTokens)}`;
  if (req.responseFormat !== undefined) {
    body += `,"response_format":{"type":${JSON.stringify(req.responseFormat)}}`;
  }
  if (req.thinking !== undefined) body += `,"thinking":{"type":${JSON.stringify(req.thinking)}}`;
  return `${body}}`;
}
