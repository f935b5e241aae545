/**
 * A Gemini API simulator for the differential test against Gemini CLI: `POST
 * /v1beta/models/<model>:streamGenerateContent?alt=sse` (SSE) and `:generateContent` (JSON),
 * `:countTokens`, answered from a script of replies in order. Only requests that offer tools
 * take a scripted reply; side requests (next-speaker checks, summaries) get a neutral answer,
 * JSON when JSON was asked for. Every request body is recorded. Loopback only.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A function call in a scripted reply (Gemini CLI's tool names and argument fields). */
export interface GeminiCall {
  name: string;
  args: Record<string, unknown>;
}

/** One scripted model turn. */
export interface GeminiReply {
  text?: string;
  calls?: GeminiCall[];
}

/** One request the simulator received. */
export interface GeminiRecord {
  index: number;
  path: string;
  /** Parsed JSON body (null when not JSON). */
  body: unknown;
  /** Index of the script reply used; null for side requests and other paths. */
  replyIndex: number | null;
}

/** A running simulator. */
export interface GeminiSim {
  /** The base URL (GOOGLE_GEMINI_BASE_URL). */
  url: string;
  records: GeminiRecord[];
  /** The main-loop requests (those that took a scripted reply). */
  turns(): GeminiRecord[];
  close(): Promise<void>;
}

/** Text sent when the script is used up. */
export const GEMINI_EXHAUSTED = "(gemini sim: script exhausted)";

/** Side-request JSON that satisfies the schemas Gemini CLI asks for (next speaker, routing). */
const SIDE_JSON = {
  next_speaker: "user",
  reasoning: "simulated",
  model_choice: "flash",
};

/** The `candidates` body of one reply. */
export function geminiResponse(reply: GeminiReply, model: string): object {
  const parts: object[] = [];
  if (reply.text !== undefined) parts.push({ text: reply.text });
  for (const c of reply.calls ?? []) parts.push({ functionCall: { name: c.name, args: c.args } });
  return {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 5, totalTokenCount: 105 },
    modelVersion: model,
  };
}

/** Starts the simulator on 127.0.0.1 with a free port. */
export async function startGeminiSim(replies: readonly GeminiReply[]): Promise<GeminiSim> {
  const records: GeminiRecord[] = [];
  let next = 0;
  const server = createServer((req, res) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    let body: unknown = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = null;
    }
    const url = new URL(req.url ?? "/", "http://sim");
    const m = /\/models\/([^/:]+):(\w+)$/.exec(url.pathname);
    const record: GeminiRecord = {
      index: records.length,
      path: url.pathname,
      body,
      replyIndex: null,
    };
    records.push(record);
    if (req.method !== "POST" || !m) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: 404, message: `no route ${url.pathname}` } }));
      return;
    }
    const [, model = "gemini", method] = m;
    if (method === "countTokens") {
      sendJson(res, { totalTokens: 100 });
      return;
    }
    const b = (body ?? {}) as { tools?: unknown[]; generationConfig?: Record<string, unknown> };
    let reply: GeminiReply;
    if (Array.isArray(b.tools) && b.tools.length > 0) {
      record.replyIndex = next < replies.length ? next : null;
      reply = replies[next++] ?? { text: GEMINI_EXHAUSTED };
    } else {
      const json = b.generationConfig?.responseMimeType === "application/json";
      reply = { text: json ? JSON.stringify(SIDE_JSON) : "ok" };
    }
    const response = geminiResponse(reply, model);
    if (method === "streamGenerateContent") {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(`data: ${JSON.stringify(response)}\r\n\r\n`);
    } else {
      sendJson(res, response);
    }
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    records,
    turns: () => records.filter((r) => r.replyIndex !== null),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function sendJson(res: ServerResponse, value: unknown): void {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => {
      data += c;
    });
    req.on("end", () => resolve(data));
    req.on("error", reject);
  });
}
