/**
 * Builds the JSON body of a chat request by concatenation: the messages are replayed as the exact
 * bytes the agent rendered once, so consecutive requests share a byte-identical prefix.
 *
 * `buildRequestBodyChunks` is what the client sends: the body as a list of byte chunks in which
 * each message is the same Buffer request after request (encoded once, kept in a small cache),
 * so a long session does not build a fresh multi-hundred-kilobyte string and its UTF-8 copy for
 * every request. `buildRequestBody` is the same bytes as one string.
 */
import type { ChatRequest } from "./types.js";

/** Options for building a request body. */
export interface RequestBodyOptions {
  stream: boolean;
}

/** Everything after the messages array, e.g. `],"tools":[…],"stream":true}`. */
function tail(req: ChatRequest, options: RequestBodyOptions): string {
  let body = "]";
  if (req.tools !== undefined) body += `,"tools":${req.tools}`;
  if (options.stream) body += `,"stream":true,"stream_options":{"include_usage":true}`;
  else body += `,"stream":false`;
  if (req.temperature !== undefined) body += `,"temperature":${JSON.stringify(req.temperature)}`;
  if (req.maxTokens !== undefined) body += `,"max_tokens":${JSON.stringify(req.maxTokens)}`;
  if (req.responseFormat !== undefined) {
    body += `,"response_format":{"type":${JSON.stringify(req.responseFormat)}}`;
  }
  if (req.thinking !== undefined) body += `,"thinking":{"type":${JSON.stringify(req.thinking)}}`;
  // After the messages, like every setting: a changed effort keeps the cached prefix.
  if (req.reasoningEffort !== undefined) {
    body += `,"reasoning_effort":${JSON.stringify(req.reasoningEffort)}`;
  }
  return `${body}}`;
}

const head = (req: ChatRequest) => `{"model":${JSON.stringify(req.model)},"messages":[`;

/** Renders the request body; `messages` and `tools` are inserted verbatim, never re-serialized. */
export function buildRequestBody(req: ChatRequest, options: RequestBodyOptions): string {
  return `${head(req)}${req.messages.join(",")}${tail(req, options)}`;
}

/** A request body as byte chunks (sent in order) and their total length. */
export interface RequestBodyChunks {
  chunks: readonly Uint8Array[];
  byteLength: number;
}

/**
 * Encoded messages by their text, each with the comma that precedes it in the array (the first
 * message is sent without it), so a request is one chunk per message. A message string is the
 * log's own stored string, so a lookup hashes it once (V8 keeps a string's hash) and compares
 * by identity. Entries unused for
 * CACHE_GENERATIONS builds are dropped, so the cache holds about one session's messages
 * (plus a sub-agent's, interleaved) and nothing of sessions that ended.
 */
const cache = new Map<string, { bytes: Buffer; used: number }>();
const CACHE_GENERATIONS = 8;
let generation = 0;

function encoded(message: string): Buffer {
  const hit = cache.get(message);
  if (hit) {
    hit.used = generation;
    return hit.bytes;
  }
  const bytes = Buffer.from(`,${message}`, "utf8");
  cache.set(message, { bytes, used: generation });
  return bytes;
}

/** The same bytes as `buildRequestBody`, as chunks that reuse each message's encoded bytes. */
export function buildRequestBodyChunks(
  req: ChatRequest,
  options: RequestBodyOptions,
): RequestBodyChunks {
  generation++;
  const chunks: Uint8Array[] = [Buffer.from(head(req))];
  const messages = req.messages;
  for (let i = 0; i < messages.length; i++) {
    const bytes = encoded(messages[i] as string);
    chunks.push(i === 0 ? bytes.subarray(1) : bytes);
  }
  chunks.push(Buffer.from(tail(req, options)));
  if (generation % CACHE_GENERATIONS === 0) {
    for (const [key, entry] of cache) {
      if (generation - entry.used >= CACHE_GENERATIONS) cache.delete(key);
    }
  }
  let byteLength = 0;
  for (const c of chunks) byteLength += c.byteLength;
  return { chunks, byteLength };
}
