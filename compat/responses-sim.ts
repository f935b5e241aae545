/**
 * An OpenAI Responses API simulator for `npm run compat:codex`: `POST /v1/responses` answered
 * as a server-sent event stream from a script of replies in order (the events the `codex`
 * binary waits for: `response.created`, `response.output_item.added`/`.done` per item,
 * `response.output_text.delta`, and `response.completed`, without which it retries), every
 * request body recorded so the run can see what the model received. Other paths (the model
 * list `codex` refreshes at start) get an empty answer. Loopback only.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One output item of a scripted reply, as the Responses API streams it. */
export type ResponsesItem =
  | { type: "message"; text: string }
  | { type: "function_call"; name: string; arguments: Record<string, unknown>; call_id?: string }
  | { type: "custom_tool_call"; name: string; input: string; call_id?: string };

/** One scripted model turn: the items it outputs, in order. */
export interface ResponsesReply {
  items: ResponsesItem[];
}

/** One request the simulator received. */
export interface ResponsesRecord {
  index: number;
  method: string;
  path: string;
  /** Parsed JSON body (null when not JSON). */
  body: unknown;
  /** Index of the script reply used; null for other paths. */
  replyIndex: number | null;
}

/** A running simulator. */
export interface ResponsesSim {
  /** Base URL to give `codex` as a provider's `base_url` (ends in `/v1`). */
  url: string;
  records: ResponsesRecord[];
  /** The requests that took a scripted reply, in order. */
  turns(): ResponsesRecord[];
  close(): Promise<void>;
}

/** Text of the reply sent when the script is used up. */
export const RESPONSES_EXHAUSTED = "(responses sim: script exhausted)";

/** Starts the simulator on 127.0.0.1 with a free port. */
export async function startResponsesSim(replies: readonly ResponsesReply[]): Promise<ResponsesSim> {
  const records: ResponsesRecord[] = [];
  let next = 0;
  let callIds = 0;
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
    const record: ResponsesRecord = {
      index: records.length,
      method: req.method ?? "GET",
      path: url.pathname,
      body,
      replyIndex: null,
    };
    records.push(record);
    if (req.method === "GET" && url.pathname.endsWith("/models")) {
      return json(res, 200, { models: [], data: [] });
    }
    if (req.method !== "POST" || !url.pathname.endsWith("/responses")) {
      return json(res, 404, { error: { message: `no route ${url.pathname}` } });
    }
    let reply: ResponsesReply;
    if (next < replies.length) {
      record.replyIndex = next;
      reply = replies[next++] ?? { items: [] };
    } else {
      record.replyIndex = next++;
      reply = { items: [{ type: "message", text: RESPONSES_EXHAUSTED }] };
    }
    stream(res, reply, record.index, () => {
      callIds += 1;
      return `call_sim${String(callIds).padStart(4, "0")}`;
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    records,
    turns: () => records.filter((r) => r.replyIndex !== null),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The wire form of one scripted item. */
function wireItem(item: ResponsesItem, index: number, callId: () => string) {
  switch (item.type) {
    case "message":
      return {
        type: "message",
        id: `msg_sim_${index}`,
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: item.text, annotations: [] }],
      };
    case "function_call":
      return {
        type: "function_call",
        id: `fc_sim_${index}`,
        status: "completed",
        name: item.name,
        arguments: JSON.stringify(item.arguments),
        call_id: item.call_id ?? callId(),
      };
    case "custom_tool_call":
      return {
        type: "custom_tool_call",
        id: `ctc_sim_${index}`,
        status: "completed",
        name: item.name,
        input: item.input,
        call_id: item.call_id ?? callId(),
      };
  }
}

/** Writes a reply as the Responses API's event stream. */
function stream(
  res: ServerResponse,
  reply: ResponsesReply,
  requestIndex: number,
  callId: () => string,
): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  let seq = 0;
  const send = (type: string, data: object) =>
    res.write(
      `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`,
    );
  const id = `resp_sim_${requestIndex}`;
  send("response.created", { response: { id, object: "response", status: "in_progress" } });
  reply.items.forEach((item, i) => {
    const wire = wireItem(item, i, callId);
    send("response.output_item.added", {
      output_index: i,
      item: { ...wire, status: "in_progress" },
    });
    if (wire.type === "message") {
      send("response.output_text.delta", {
        item_id: wire.id,
        output_index: i,
        content_index: 0,
        delta: (item as { text: string }).text,
      });
    }
    send("response.output_item.done", { output_index: i, item: wire });
  });
  send("response.completed", {
    response: {
      id,
      object: "response",
      status: "completed",
      usage: {
        input_tokens: 10,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 5,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 15,
      },
    },
  });
  res.end();
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
