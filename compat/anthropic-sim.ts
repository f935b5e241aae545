/**
 * An Anthropic Messages API simulator for the differential test: `POST /v1/messages` (streamed
 * SSE or one JSON body) answered from a script of replies in order, every request body recorded
 * so a test can see what the model received. Loopback only.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A tool call in a scripted reply (Claude's tool names and input fields). */
export interface AnthropicToolCall {
  name: string;
  input: Record<string, unknown>;
  id?: string;
}

/** One scripted assistant turn. */
export interface AnthropicReply {
  thinking?: string;
  text?: string;
  toolCalls?: AnthropicToolCall[];
}

/** One request the simulator received. */
export interface AnthropicRecord {
  index: number;
  method: string;
  path: string;
  /** Parsed JSON body (null when not JSON). */
  body: unknown;
  /** Index of the script reply used, null for side requests and unknown paths. */
  replyIndex: number | null;
}

/** A running simulator. */
export interface AnthropicSim {
  url: string;
  records: AnthropicRecord[];
  /** The recorded main-loop message requests (those that took a scripted reply). */
  turns(): AnthropicRecord[];
  /** Paths the simulator did not know (answered 404 and logged here). */
  unknownPaths: string[];
  close(): Promise<void>;
}

/** Text of the reply sent when the script is used up. */
export const ANTHROPIC_EXHAUSTED = "(anthropic sim: script exhausted)";

/** Starts the simulator on 127.0.0.1 with a free port. */
export async function startAnthropicSim(replies: readonly AnthropicReply[]): Promise<AnthropicSim> {
  const records: AnthropicRecord[] = [];
  const unknownPaths: string[] = [];
  let next = 0;
  let toolIds = 0;
  const server = createServer((req, res) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://sim");
    const raw = await readBody(req);
    let body: unknown = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = null;
    }
    const record: AnthropicRecord = {
      index: records.length,
      method: req.method ?? "GET",
      path: url.pathname,
      body,
      replyIndex: null,
    };
    records.push(record);
    const path = url.pathname;
    if (req.method === "POST" && path === "/v1/messages/count_tokens") {
      return json(res, 200, { input_tokens: Math.ceil(raw.length / 4) });
    }
    if (req.method === "GET" && path.startsWith("/v1/models")) {
      return json(res, 200, {
        data: [{ type: "model", id: "claude-sonnet-4-5", display_name: "Claude Sonnet" }],
        has_more: false,
        first_id: "claude-sonnet-4-5",
        last_id: "claude-sonnet-4-5",
      });
    }
    if (req.method === "HEAD" && path === "/") {
      // Claude Code probes the base URL before its first request.
      res.writeHead(200);
      res.end();
      return;
    }
    if (req.method !== "POST" || path !== "/v1/messages") {
      unknownPaths.push(`${req.method} ${path}`);
      return json(res, 404, {
        type: "error",
        error: { type: "not_found_error", message: `no route ${path}` },
      });
    }
    const request = (body ?? {}) as { model?: string; stream?: boolean; tools?: unknown[] };
    // Side requests (titles, summaries) come without tools; they must not eat the script.
    const main = Array.isArray(request.tools) && request.tools.length > 0;
    let reply: AnthropicReply;
    if (main && next < replies.length) {
      record.replyIndex = next;
      reply = replies[next++] ?? {};
    } else if (main) {
      reply = { text: ANTHROPIC_EXHAUSTED };
    } else {
      reply = { text: "ok" };
    }
    const message = toMessage(reply, request.model ?? "claude-sonnet-4-5", record.index, () => {
      toolIds += 1;
      return `toolu_sim${String(toolIds).padStart(4, "0")}`;
    });
    if (request.stream) return stream(res, message);
    return json(res, 200, message);
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    records,
    turns: () => records.filter((r) => r.replyIndex !== null),
    unknownPaths,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

type Block =
  | { type: "thinking"; thinking: string; signature: string }
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

interface Message {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  content: Block[];
  stop_reason: "end_turn" | "tool_use";
  stop_sequence: null;
  usage: { input_tokens: number; output_tokens: number };
}

function toMessage(reply: AnthropicReply, model: string, index: number, toolId: () => string) {
  const content: Block[] = [];
  if (reply.thinking) {
    content.push({ type: "thinking", thinking: reply.thinking, signature: "sim-signature" });
  }
  if (reply.text) content.push({ type: "text", text: reply.text });
  for (const call of reply.toolCalls ?? []) {
    content.push({ type: "tool_use", id: call.id ?? toolId(), name: call.name, input: call.input });
  }
  const message: Message = {
    id: `msg_sim_${index}`,
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: (reply.toolCalls?.length ?? 0) > 0 ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  };
  return message;
}

/** Writes the message as Anthropic's SSE event sequence. */
function stream(res: ServerResponse, message: Message): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (event: string, data: object) =>
    res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
  send("message_start", {
    message: { ...message, content: [], stop_reason: null, usage: { ...message.usage } },
  });
  for (const [index, block] of message.content.entries()) {
    if (block.type === "text") {
      send("content_block_start", { index, content_block: { type: "text", text: "" } });
      for (const piece of pieces(block.text, 24)) {
        send("content_block_delta", { index, delta: { type: "text_delta", text: piece } });
      }
    } else if (block.type === "thinking") {
      send("content_block_start", {
        index,
        content_block: { type: "thinking", thinking: "", signature: "" },
      });
      send("content_block_delta", {
        index,
        delta: { type: "thinking_delta", thinking: block.thinking },
      });
      send("content_block_delta", {
        index,
        delta: { type: "signature_delta", signature: block.signature },
      });
    } else {
      send("content_block_start", {
        index,
        content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
      });
      for (const piece of pieces(JSON.stringify(block.input), 20)) {
        send("content_block_delta", {
          index,
          delta: { type: "input_json_delta", partial_json: piece },
        });
      }
    }
    send("content_block_stop", { index });
  }
  send("message_delta", {
    delta: { stop_reason: message.stop_reason, stop_sequence: null },
    usage: { output_tokens: message.usage.output_tokens },
  });
  send("message_stop", {});
  res.end();
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length > 0 ? out : [""];
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
