/**
 * The DeepSeek-compatible simulator: an HTTP server on loopback answering `POST /chat/completions`
 * (streamed or not) from a script, with DeepSeek's validation, error bodies and context-cache
 * accounting, and `GET /_sim/requests` listing what it received.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { loadModelTable } from "../llm/index.js";
import { type ReplyInput, ScriptBuilder, toReply } from "./builder.js";
import { arrayElements, topLevelMembers } from "./json-spans.js";
import { PrefixCache } from "./prefix-cache.js";
import { newRecord, type SimRequestRecord } from "./record.js";
import { ReplyQueue } from "./reply-queue.js";
import { type ResolvedReply, resolveReply } from "./resolve-reply.js";
import { completionBody, errorBody, streamPayloads, type WireUsage } from "./respond.js";
import { parseScript, type Script, type ScriptFile, type ScriptReply } from "./script.js";
import { renderPrompt } from "./template.js";
import { loadTokenizer, SegmentEncoder } from "./tokenizer.js";
import {
  REASONING_NOT_PASSED_BACK,
  reasoningNotPassedBack,
  type SimChatRequest,
  validateRequest,
} from "./validate.js";

/** What `startSimulator` accepts as a script. */
export type ScriptInput = ScriptFile | ScriptBuilder | ScriptReply[];

/** Options of `startSimulator`. */
export interface SimulatorOptions {
  script: ScriptInput;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /**
   * Keep each request's bytes and parsed messages in its record (default true). A long session
   * re-sends its whole history every turn, so records grow quadratically; memory benchmarks that
   * run the simulator in-process turn this off and keep only the counts.
   */
  keepBodies?: boolean;
  /** Called once each chat request has been answered (e.g. to log it). Must not throw. */
  onRequest?: (record: SimRequestRecord) => void;
}

/** A running simulator. */
export interface Simulator {
  /** Base URL, e.g. `http://127.0.0.1:41234` (use it as the client's baseUrl). */
  url: string;
  port: number;
  /** Every request received, in arrival order (live). */
  requests: SimRequestRecord[];
  /** Scripted replies not yet used. */
  remainingReplies(): number;
  /** Appends replies to the script. Throws on an invalid reply (a programming error in a test). */
  addReplies(...replies: ReplyInput[]): void;
  close(): Promise<void>;
}

/** The text sent when the script has no reply left for a request. */
export const EXHAUSTED_TEXT = "(simulator: script exhausted)";

/** Starts the simulator. Rejects when the script is invalid (the message names the field). */
export async function startSimulator(options: SimulatorOptions): Promise<Simulator> {
  const script = toScript(options.script);
  const state: ServerState = {
    script,
    queue: new ReplyQueue(script.replies),
    cache: new PrefixCache(),
    encoder: null,
    records: [],
    keepBodies: options.keepBodies ?? true,
    thinkingCallIds: new Set(),
  };
  const server = createServer((req, res) => {
    handle(state, req, res)
      .catch((err: unknown) => {
        if (!res.headersSent) sendError(res, 500, `simulator failure: ${String(err)}`, "api_error");
        else res.destroy();
        return null;
      })
      .then((record) => {
        if (record) options.onRequest?.(record);
      });
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    port,
    requests: state.records,
    remainingReplies: () => state.queue.remaining(),
    addReplies: (...replies) => {
      const parsed = parseScript({ replies: replies.map(toReply) });
      if (!parsed.ok) throw new Error(`invalid reply: ${parsed.error}`);
      state.queue.add(parsed.script.replies);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

interface ServerState {
  script: Script;
  queue: ReplyQueue;
  cache: PrefixCache;
  encoder: SegmentEncoder | null;
  records: SimRequestRecord[];
  keepBodies: boolean;
  /** Ids of tool calls sent in thinking mode: their reasoning must come back with them. */
  thinkingCallIds: Set<string>;
}

function toScript(input: ScriptInput): Script {
  const value = input instanceof ScriptBuilder ? input.toJSON() : input;
  const parsed = parseScript(value);
  if (!parsed.ok) throw new Error(`invalid simulator script: ${parsed.error}`);
  return parsed.script;
}

/**
 * The model list as DeepSeek's GET /models returns it (`keel doctor` and other clients probe it):
 * the models of the pricing table that are not retired.
 */
function modelList(): {
  object: "list";
  data: { id: string; object: "model"; owned_by: string }[];
} {
  const loaded = loadModelTable();
  const now = new Date().toISOString().slice(0, 10);
  const ids = loaded.ok
    ? Object.entries(loaded.table.models)
        .filter(([, m]) => !m.retiredAfter || m.retiredAfter >= now)
        .map(([id]) => id)
    : [];
  return {
    object: "list",
    data: ids.map((id) => ({ id, object: "model" as const, owned_by: "keel-sim" })),
  };
}

/** The simulator's own reads (the request records, the model list); false: not one of them. */
function answerRead(state: ServerState, req: IncomingMessage, res: ServerResponse, path: string) {
  if (req.method !== "GET") return false;
  if (path === "/_sim/requests") {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(state.records));
    return true;
  }
  if (path === "/models" || path === "/v1/models") {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(modelList()));
    return true;
  }
  return false;
}

/** Sends an error answer and records it on the request's record. */
type Fail = (
  status: number,
  message: string,
  type: string,
  headers?: Record<string, string>,
) => SimRequestRecord;

/**
 * What DeepSeek refuses before it answers: no key, a body that is not JSON or not a valid
 * request, reasoning not passed back, a prompt longer than the scripted context window. Returns
 * the request, or the record of the refusal.
 */
async function admit(
  state: ServerState,
  req: IncomingMessage,
  raw: string,
  record: SimRequestRecord,
  fail: Fail,
): Promise<SimChatRequest | SimRequestRecord> {
  const key = /^Bearer\s+(\S+)/i.exec(req.headers.authorization ?? "")?.[1];
  if (!key) return fail(401, "Authentication Fails, no API key given", "authentication_error");
  record.keyId = createHash("sha256").update(key).digest("hex").slice(0, 12);
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return fail(400, "Failed to parse the request body as JSON", "invalid_request_error");
  }
  const validated = validateRequest(json);
  if (!validated.ok) return fail(validated.status, validated.message, validated.type);
  const request = validated.request;
  describeRequest(record, request, raw, state.keepBodies);
  const unreturned = reasoningNotPassedBack(request, state.thinkingCallIds);
  if (unreturned !== null) {
    const message = `${REASONING_NOT_PASSED_BACK} (messages[${unreturned}])`;
    return fail(400, message, "invalid_request_error");
  }
  const window = state.script.contextTokens;
  if (window !== undefined) {
    state.encoder ??= new SegmentEncoder(await loadTokenizer());
    const encoder = state.encoder;
    const prompt = renderPrompt(request).reduce((n, s) => n + encoder.tokens(s).length, 0);
    const completion = request.maxTokens ?? 0;
    if (prompt + completion > window) {
      return fail(400, contextLengthMessage(window, prompt, completion), "invalid_request_error");
    }
  }
  return request;
}

/** Answers one HTTP request; returns the record of a chat request. */
async function handle(
  state: ServerState,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<SimRequestRecord | null> {
  const path = new URL(req.url ?? "/", "http://sim").pathname;
  if (answerRead(state, req, res, path)) return null;
  if (req.method !== "POST" || (path !== "/chat/completions" && path !== "/v1/chat/completions")) {
    sendError(res, 404, `no route for ${req.method} ${path}`, "invalid_request_error");
    return null;
  }
  const raw = await readBody(req);
  const record = newRecord(state.records.length, path, state.keepBodies ? raw : null);
  state.records.push(record);
  const fail: Fail = (status, message, type, headers = {}) => {
    record.status = status;
    record.error = message;
    sendError(res, status, message, type, headers);
    return record;
  };
  const request = await admit(state, req, raw, record, fail);
  if (request === record) return record;
  return reply(state, res, record, request as SimChatRequest, fail);
}

/** The script's next reply to an admitted request: an error, a completion or a stream. */
async function reply(
  state: ServerState,
  res: ServerResponse,
  record: SimRequestRecord,
  request: SimChatRequest,
  fail: Fail,
): Promise<SimRequestRecord> {
  const taken = state.queue.take(request);
  record.replyIndex = taken?.index ?? null;
  record.scriptExhausted = taken === null;
  const reply = taken?.reply;
  const latency = { ...state.script.latency, ...reply?.latency };
  if (reply?.error) {
    await delay(latency.firstByteMs);
    const e = reply.error;
    const headers: Record<string, string> =
      e.retryAfter === undefined ? {} : { "retry-after": String(e.retryAfter) };
    return fail(
      e.status,
      e.message ?? defaultErrorMessage(e.status),
      e.type ?? errorType(e.status),
      headers,
    );
  }
  const resolved: ResolvedReply = reply
    ? resolveReply(reply)
    : {
        thinking: false,
        reasoning: "",
        text: EXHAUSTED_TEXT,
        toolCalls: [],
        finishReason: "stop",
        chunkChars: undefined,
      };
  resolved.chunkChars ??= state.script.chunkChars;

  state.encoder ??= new SegmentEncoder(await loadTokenizer());
  const usage = account(state, state.encoder, record, request, resolved, reply?.usage);
  record.finishReason = resolved.finishReason;
  const meta = {
    id: `chatcmpl-sim-${record.index}`,
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    callId: (i: number) => `call_${record.index}_${i}`,
  };
  if (resolved.thinking) {
    for (const [i, call] of resolved.toolCalls.entries()) {
      state.thinkingCallIds.add(call.id ?? meta.callId(i));
    }
  }
  if (!request.stream) {
    await delay(latency.firstByteMs);
    record.status = 200;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(completionBody(resolved, meta, usage));
    return record;
  }
  return sendStream(res, record, streamPayloads(resolved, meta, usage), reply, latency);
}

/** Streams the reply's chunks as server-sent events, as scripted: keep-alives first, a delay
 *  between chunks, a dropped connection after some. */
async function sendStream(
  res: ServerResponse,
  record: SimRequestRecord,
  payloads: string[],
  reply: ScriptReply | undefined,
  latency: { firstByteMs?: number | undefined; chunkDelayMs?: number | undefined },
): Promise<SimRequestRecord> {
  let closed = false;
  res.on("close", () => {
    closed = true;
  });
  record.status = 200;
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.flushHeaders();
  for (let i = 0; i < (reply?.keepAlive ?? 0) && !closed; i++) await write(res, ": keep-alive\n\n");
  await delay(latency.firstByteMs);
  const cut = reply?.disconnectAfterChunks;
  if (cut === 0) return disconnect(res, record);
  for (const [i, payload] of payloads.entries()) {
    if (closed) return record;
    if (i > 0) await delay(latency.chunkDelayMs);
    await write(res, `data: ${payload}\n\n`);
    if (cut !== undefined && i + 1 >= cut) return disconnect(res, record);
  }
  if (!closed) res.end("data: [DONE]\n\n");
  return record;
}

/** DeepSeek's (OpenAI-shaped) answer to a prompt longer than the context window. */
export function contextLengthMessage(window: number, prompt: number, completion: number): string {
  return `This model's maximum context length is ${window} tokens. However, you requested ${prompt + completion} tokens (${prompt} in the messages, ${completion} in the completion). Please reduce the length of the messages or completion.`;
}

function disconnect(res: ServerResponse, record: SimRequestRecord): SimRequestRecord {
  record.error = "connection dropped by the script";
  res.destroy();
  return record;
}

/** Fills the record with the request's parsed and exact-bytes views. */
function describeRequest(
  record: SimRequestRecord,
  request: SimChatRequest,
  raw: string,
  keep: boolean,
) {
  record.model = request.model;
  record.stream = request.stream;
  record.temperature = request.temperature;
  record.jsonMode = request.jsonMode;
  if (!keep) return;
  record.messages = request.messages;
  const members = topLevelMembers(raw);
  const messages = members.get("messages");
  if (messages) {
    record.messagesText = raw.slice(messages.start, messages.end);
    record.messageTexts = arrayElements(raw, messages).map((s) => raw.slice(s.start, s.end));
  }
  const tools = members.get("tools");
  if (tools) record.toolsText = raw.slice(tools.start, tools.end);
}

/** Cache accounting and completion token counts; fills the record, returns the wire usage. */
function account(
  state: ServerState,
  encoder: SegmentEncoder,
  record: SimRequestRecord,
  request: SimChatRequest,
  reply: ResolvedReply,
  override:
    | { completionTokens?: number | undefined; reasoningTokens?: number | undefined }
    | undefined,
): WireUsage {
  const segments = renderPrompt(request).map((s) => encoder.tokens(s));
  const cache = state.cache.account(record.keyId ?? "", record.index, segments);
  const reasoningTokens = override?.reasoningTokens ?? encoder.count(reply.reasoning);
  let completion = reasoningTokens + encoder.count(reply.text);
  for (const c of reply.toolCalls) completion += encoder.count(c.name) + encoder.count(c.arguments);
  const completionTokens = override?.completionTokens ?? completion;
  Object.assign(record, cache, { completionTokens, reasoningTokens });
  return {
    prompt_tokens: cache.promptTokens,
    completion_tokens: completionTokens,
    total_tokens: cache.promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: cache.hitTokens },
    completion_tokens_details: { reasoning_tokens: reasoningTokens },
    prompt_cache_hit_tokens: cache.hitTokens,
    prompt_cache_miss_tokens: cache.missTokens,
  };
}

function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  type: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(errorBody(message, type));
}

function defaultErrorMessage(status: number): string {
  const messages: Record<number, string> = {
    400: "Invalid request body format",
    401: "Authentication Fails, Your api key is invalid",
    402: "Insufficient Balance",
    422: "Invalid Parameters",
    429: "Rate Limit Reached",
    500: "Server Error",
    503: "Server Overloaded",
  };
  return messages[status] ?? `HTTP ${status}`;
}

function errorType(status: number): string {
  if (status === 429) return "rate_limit_error";
  if (status === 401) return "authentication_error";
  if (status >= 500) return "api_error";
  return "invalid_request_error";
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function write(res: ServerResponse, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve();
    res.write(text, () => resolve());
  });
}

function delay(ms: number | undefined): Promise<void> {
  if (!ms) return Promise.resolve();
  return new Promise((resolve) => setTimeout(resolve, ms));
}
