/**
 * The OpenAI-compatible streaming chat client: POST `<baseUrl>/chat/completions`, SSE parsing,
 * retries with backoff before the first byte of a body (never mid-stream), abort support. It never
 * throws: every failure ends the stream with an `error` event, and the API key is redacted from
 * every message it produces.
 */
import { redactUrls } from "../base/index.js";
import { StreamAssembler } from "./assemble.js";
import { errorBodyMessage, wireChunk } from "./chunk.js";
import { DEFAULT_STREAM_IDLE_MS } from "./config.js";
import { httpPost, type Post, type PostResponse } from "./http-post.js";
import { buildRequestBodyChunks, type RequestBodyChunks } from "./request-body.js";
import {
  backoffDelay,
  defaultSleep,
  parseRetryAfter,
  RETRYABLE_STATUSES,
  type Sleep,
} from "./retry.js";
import { SseLimitError, SseParser } from "./sse.js";
import type { ChatClient, ChatRequest, StreamEvent } from "./types.js";

/** Options of `createChatClient`. */
export interface ChatClientOptions {
  /** e.g. `https://api.deepseek.com`; requests go to `<baseUrl>/chat/completions`. */
  baseUrl: string;
  /** Where the base URL was set, named when the endpoint turns out not to be the API (an HTML
   *  page answers), e.g. `KEEL_BASE_URL` or `"baseUrl" in ~/.keel/config.json` (baseUrlOrigin). */
  baseUrlOrigin?: string;
  apiKey: string;
  /** The HTTP transport (default: node:http / node:https, see http-post.ts); for tests. */
  post?: Post;
  /** Retries after the first attempt (default 4). */
  maxRetries?: number;
  /** First backoff delay (default 500 ms), doubled per attempt, with jitter. */
  baseDelayMs?: number;
  /** Cap on any single delay, Retry-After included (default 60 s). */
  maxDelayMs?: number;
  /** Injectable for tests; must resolve early when the signal aborts. */
  sleep?: Sleep;
  /** Injectable jitter source (0..1). */
  random?: () => number;
  /**
   * End an attempt that receives no SSE event for this long, keep-alive comments or not
   * (default DEFAULT_STREAM_IDLE_MS; `streamIdleMs` in config.json / KEEL_STREAM_IDLE_MS).
   */
  streamIdleMs?: number;
  /** Cap on one SSE line or event, characters (default DEFAULT_MAX_EVENT_CHARS). */
  maxSseEventChars?: number;
}

/** Ends an attempt that receives no event for `ms`: an abort told apart from the user's. */
function idleWatch(ms: number, outer: AbortSignal | undefined) {
  const controller = new AbortController();
  let fired = false;
  const timer = setTimeout(() => {
    fired = true;
    controller.abort();
  }, ms);
  return {
    signal: outer ? AbortSignal.any([outer, controller.signal]) : controller.signal,
    fired: () => fired,
    touch: () => void timer.refresh(),
    stop: () => clearTimeout(timer),
    error: (): ErrorEvent =>
      streamError(
        `no data from the model for ${Math.round(ms / 1000)} s (only keep-alives or nothing); the turn was ended. ` +
          "KEEL_STREAM_IDLE_MS or streamIdleMs in config.json waits longer",
      ),
  };
}

type IdleWatch = ReturnType<typeof idleWatch>;

type ErrorEvent = Extract<StreamEvent, { type: "error" }>;

/** How one attempt ended. */
type Attempt =
  | { kind: "finished" }
  | { kind: "fatal"; event: ErrorEvent }
  | { kind: "retryable"; status: number; message: string; retryAfterMs: number | null };

/** Creates a client for one endpoint and key. */
export function createChatClient(options: ChatClientOptions): ChatClient {
  return { stream: (req) => streamChat(options, req) };
}

/** The chat-completions URL for a base URL (trailing slashes tolerated). */
export function chatCompletionsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/chat/completions`;
}

async function* streamChat(o: ChatClientOptions, req: ChatRequest): AsyncGenerator<StreamEvent> {
  const redact = redactor(o.apiKey);
  const maxRetries = o.maxRetries ?? 4;
  const sleep = o.sleep ?? defaultSleep;
  // Each message's bytes are encoded once per session, not once per request (request-body.ts).
  const body = buildRequestBodyChunks(req, { stream: true });
  for (let attempt = 1; ; attempt++) {
    if (req.signal?.aborted) {
      yield aborted();
      return;
    }
    const outcome = yield* attemptOnce(o, req, body);
    if (outcome.kind === "finished") return;
    if (outcome.kind === "fatal") {
      yield { ...outcome.event, message: redact(outcome.event.message) };
      return;
    }
    if (attempt > maxRetries) {
      const status = outcome.status === 0 ? null : outcome.status;
      const tries = `${attempt} attempt${attempt === 1 ? "" : "s"}`;
      yield {
        type: "error",
        message: redact(`${outcome.message} (after ${tries})`),
        status,
        retryable: true,
      };
      return;
    }
    const delayMs = backoffDelay({
      attempt,
      baseDelayMs: o.baseDelayMs ?? 500,
      maxDelayMs: o.maxDelayMs ?? 60_000,
      retryAfterMs: outcome.retryAfterMs,
      ...(o.random ? { random: o.random } : {}),
    });
    yield {
      type: "retry",
      attempt,
      status: outcome.status,
      delayMs,
      message: redact(outcome.message),
    };
    await sleep(delayMs, req.signal);
  }
}

async function* attemptOnce(
  o: ChatClientOptions,
  req: ChatRequest,
  body: RequestBodyChunks,
): AsyncGenerator<StreamEvent, Attempt> {
  const idle = idleWatch(o.streamIdleMs ?? DEFAULT_STREAM_IDLE_MS, req.signal);
  try {
    return yield* attemptWatched(o, req, body, idle);
  } finally {
    idle.stop();
  }
}

async function* attemptWatched(
  o: ChatClientOptions,
  req: ChatRequest,
  body: RequestBodyChunks,
  idle: IdleWatch,
): AsyncGenerator<StreamEvent, Attempt> {
  let res: PostResponse;
  try {
    const headers = {
      "content-type": "application/json",
      accept: "text/event-stream",
      authorization: `Bearer ${o.apiKey}`,
      "user-agent": "keel",
      // Known length: sent as such, not chunked (some OpenAI-compatible proxies refuse that).
      "content-length": String(body.byteLength),
    };
    res = await (o.post ?? httpPost)(chatCompletionsUrl(o.baseUrl), headers, body, idle.signal);
  } catch (err) {
    if (req.signal?.aborted) return { kind: "fatal", event: aborted() };
    if (idle.fired()) return { kind: "fatal", event: idle.error() };
    return {
      kind: "retryable",
      status: 0,
      message: `network error: cannot reach ${hostOf(o.baseUrl)}: ${describe(err)}`,
      retryAfterMs: null,
    };
  }
  if (res.status < 200 || res.status > 299) {
    let text = "";
    try {
      text = await res.text();
    } catch {
      if (req.signal?.aborted) return { kind: "fatal", event: aborted() };
      if (idle.fired()) return { kind: "fatal", event: idle.error() };
    }
    const detail =
      errorBodyMessage(text, res.status, o.baseUrlOrigin) || res.statusText || "request failed";
    const message = `HTTP ${res.status}: ${detail}`;
    if (RETRYABLE_STATUSES.has(res.status)) {
      const retryAfterMs = parseRetryAfter(res.header("retry-after"));
      return { kind: "retryable", status: res.status, message, retryAfterMs };
    }
    return {
      kind: "fatal",
      event: { type: "error", message, status: res.status, retryable: false },
    };
  }
  return yield* readStream(res, req.signal, idle, o.maxSseEventChars);
}

async function* readStream(
  res: PostResponse,
  signal: AbortSignal | undefined,
  idle: IdleWatch,
  maxEventChars: number | undefined,
): AsyncGenerator<StreamEvent, Attempt> {
  const parser = new SseParser(maxEventChars !== undefined ? { maxEventChars } : {});
  const assembler = new StreamAssembler();
  let gotBytes = false;
  let finished = false;
  try {
    for (;;) {
      let chunk: IteratorResult<Uint8Array>;
      try {
        chunk = await res.body.next();
      } catch (err) {
        if (signal?.aborted) return { kind: "fatal", event: aborted() };
        if (idle.fired()) return { kind: "fatal", event: idle.error() };
        const message = `network error: ${describe(err)}`;
        // Once any byte arrived the server may have started generating: never retry then.
        if (!gotBytes) return { kind: "retryable", status: 0, message, retryAfterMs: null };
        return { kind: "fatal", event: streamError(`stream interrupted (${message})`) };
      }
      let datas: string[];
      try {
        datas = chunk.done ? parser.end() : parser.push(chunk.value);
      } catch (err) {
        if (err instanceof SseLimitError) return { kind: "fatal", event: streamError(err.message) };
        throw err;
      }
      if (!chunk.done && chunk.value.length > 0) gotBytes = true;
      // Only events count as activity: keep-alive comments alone must not hold a turn forever.
      if (datas.length > 0) idle.touch();
      for (const data of datas) {
        if (data.trim() === "[DONE]") {
          finished = true;
          await res.finish();
          yield assembler.done();
          return { kind: "finished" };
        }
        const parsed = parseChunk(data);
        if (typeof parsed === "string") return { kind: "fatal", event: streamError(parsed) };
        yield* assembler.apply(parsed);
      }
      if (chunk.done) break;
    }
    if (signal?.aborted) return { kind: "fatal", event: aborted() };
    // Some OpenAI-compatible servers end without [DONE]; a finish reason is enough.
    if (assembler.finishReason !== null) {
      finished = true;
      yield assembler.done();
      return { kind: "finished" };
    }
    if (!gotBytes) {
      return { kind: "retryable", status: 0, message: "empty response body", retryAfterMs: null };
    }
    return { kind: "fatal", event: streamError("stream ended before the completion finished") };
  } finally {
    if (!finished) res.cancel();
  }
}

/** Parses one SSE data payload; returns an error message string for bad or error chunks. */
function parseChunk(data: string) {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return `malformed stream chunk: ${data.slice(0, 80)}`;
  }
  const parsed = wireChunk.safeParse(json);
  if (!parsed.success) return `unexpected stream chunk: ${data.slice(0, 80)}`;
  if (parsed.data.error) return `server error in stream: ${parsed.data.error.message ?? "unknown"}`;
  return parsed.data;
}

/** The host:port a base URL names, for messages (never the path or any credentials). */
function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

function aborted(): ErrorEvent {
  return { type: "error", message: "request aborted", status: null, retryable: false };
}

function streamError(message: string): ErrorEvent {
  return { type: "error", message, status: null, retryable: false };
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause;
  if (cause instanceof Error) {
    const code = "code" in cause && typeof cause.code === "string" ? cause.code : cause.message;
    return `${err.message} (${code})`;
  }
  return err.message;
}

/** Replaces every occurrence of the key, and URL credentials and query values, in a message. */
function redactor(apiKey: string): (text: string) => string {
  if (apiKey.length < 4) return redactUrls;
  return (text) => redactUrls(text.split(apiKey).join("[redacted]"));
}
