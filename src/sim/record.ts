/**
 * What the simulator records about each request: the exact bytes received, the parsed messages,
 * the cache accounting and which scripted reply answered it.
 */
import type { ChatMessage } from "../llm/index.js";

/** One request as the simulator saw it. */
export interface SimRequestRecord {
  /** Position in arrival order (0-based). */
  index: number;
  receivedAt: string;
  path: string;
  /** A short hash naming the API key (the key itself is never stored). */
  keyId: string | null;
  /** HTTP status answered. */
  status: number;
  /** The raw request body (null when the simulator was started with `keepBodies: false`). */
  rawBody: string | null;
  model: string | null;
  stream: boolean;
  /** The sampling temperature sent, or null. */
  temperature: number | null;
  /** Whether `response_format: {type: json_object}` was sent. */
  jsonMode: boolean;
  messages: ChatMessage[];
  /** The exact bytes of the `messages` array as sent, brackets included. */
  messagesText: string | null;
  /** The exact bytes of each message as sent. */
  messageTexts: string[];
  /** The exact bytes of the `tools` array as sent, or null. */
  toolsText: string | null;
  /** Index of the scripted reply used (in the script with `repeat` expanded), or null. */
  replyIndex: number | null;
  /** True when no scripted reply was left and the fallback text was sent. */
  scriptExhausted: boolean;
  /** The validation or scripted error message, when the answer was an error. */
  error: string | null;
  finishReason: string | null;
  promptTokens: number;
  hitTokens: number;
  missTokens: number;
  /** See `CacheAccount.cacheableLimitTokens`: the best hit an append-only client could have had. */
  cacheableLimitTokens: number;
  /** The earlier request this one was judged to continue (see `CacheAccount`). */
  continuesRequest: number | null;
  completionTokens: number;
  reasoningTokens: number;
}

/** A fresh record for a request that has just arrived. */
export function newRecord(index: number, path: string, rawBody: string | null): SimRequestRecord {
  return {
    index,
    receivedAt: new Date().toISOString(),
    path,
    keyId: null,
    status: 0,
    rawBody,
    model: null,
    stream: false,
    temperature: null,
    jsonMode: false,
    messages: [],
    messagesText: null,
    messageTexts: [],
    toolsText: null,
    replyIndex: null,
    scriptExhausted: false,
    error: null,
    finishReason: null,
    promptTokens: 0,
    hitTokens: 0,
    missTokens: 0,
    cacheableLimitTokens: 0,
    continuesRequest: null,
    completionTokens: 0,
    reasoningTokens: 0,
  };
}
