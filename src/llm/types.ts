/**
 * The LLM layer's contract: chat messages in the OpenAI/DeepSeek shape, tool specs, streaming
 * events, usage. Imports nothing from the rest of `src/`.
 */

/** A tool call as the model emits it. */
export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/**
 * A chat message. `content` is always the text (DeepSeek rejects content-part arrays); a user
 * message's `images` (data: URLs, for models with `vision` in data/models.json) are rendered as
 * `image_url` parts after a text part (src/agent/render.ts).
 */
export interface ChatMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string | null;
  images?: string[];
  /** Assistant reasoning (thinking mode); passed back within a tool-using turn. */
  reasoning_content?: string;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
}

/** A JSON Schema object (as sent in a tool spec). */
export type JsonSchema = { [key: string]: unknown };

/** A function tool as declared to the model. */
export interface ToolSpec {
  type: "function";
  function: { name: string; description: string; parameters: JsonSchema };
}

/** Token usage of one request, DeepSeek fields normalized. */
/** The `system_fingerprint` Keel's simulator (`keel sim`) answers with: its usage is not billed. */
export const SIMULATOR_FINGERPRINT = "fp_keel_sim";

export interface Usage {
  /** Set when Keel's simulator answered (no money was spent). */
  simulated?: true;
  promptTokens: number;
  cacheHitTokens: number;
  cacheMissTokens: number;
  completionTokens: number;
  reasoningTokens: number;
}

/** Why the model stopped. */
export type FinishReason =
  | "stop"
  | "length"
  | "tool_calls"
  | "content_filter"
  | "insufficient_system_resource"
  | "error";

/**
 * One chat request. The messages are given as already-serialized JSON objects (one string per
 * message) so the agent can replay the exact bytes it sent before: the cache-first invariant.
 */
export interface ChatRequest {
  model: string;
  /** Each element is the canonical JSON of one ChatMessage, rendered once by the agent. */
  messages: readonly string[];
  /** The canonical JSON array of tool specs (rendered once), or undefined for no tools. */
  tools?: string;
  temperature?: number;
  maxTokens?: number;
  /** `json_object` for JSON mode (prompt hooks, harvest). */
  responseFormat?: "json_object";
  /** DeepSeek V4 thinking switch; omitted when undefined. */
  thinking?: "enabled" | "disabled";
  /** `reasoning_effort` (effort.ts: only for a model data/models.json says takes it). */
  reasoningEffort?: string;
  signal?: AbortSignal;
}

/** What a streaming request yields, in order. The last event is `done` or `error`. */
export type StreamEvent =
  | { type: "reasoning_delta"; text: string }
  | { type: "text_delta"; text: string }
  | { type: "tool_call_delta"; index: number; id?: string; name?: string; argumentsDelta: string }
  | { type: "retry"; attempt: number; status: number; delayMs: number; message: string }
  | {
      type: "done";
      /** The assembled assistant message (content, reasoning_content, tool_calls). */
      message: ChatMessage;
      finishReason: FinishReason;
      usage: Usage | null;
    }
  | { type: "error"; message: string; status: number | null; retryable: boolean };

/** An OpenAI-compatible chat client. */
export interface ChatClient {
  /** Streams one completion. Never throws: failures end the stream with an `error` event. */
  stream(req: ChatRequest): AsyncIterable<StreamEvent>;
}
