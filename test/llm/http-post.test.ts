/**
 * The client's transport (http-post.ts): the server receives exactly the request body's bytes
 * with their length, and a complete answer gives its connection back for the next request.
 * Real HTTP servers on 127.0.0.1.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createChatClient } from "../../src/llm/client.js";
import { buildRequestBody } from "../../src/llm/request-body.js";
import type { ChatRequest } from "../../src/llm/types.js";
import { collect, doneOf } from "./helpers.js";

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

interface Received {
  body: string;
  contentLength: string | undefined;
  socket: unknown;
}

/** A server answering every POST with one streamed text chunk, [DONE], then the end. */
async function serve(): Promise<{ url: string; received: Received[]; connections: () => number }> {
  const received: Received[] = [];
  let connections = 0;
  const server = createServer(async (req: IncomingMessage, res) => {
    const parts: Buffer[] = [];
    for await (const c of req) parts.push(c as Buffer);
    received.push({
      body: Buffer.concat(parts).toString("utf8"),
      contentLength: req.headers["content-length"],
      socket: req.socket,
    });
    res.writeHead(200, { "content-type": "text/event-stream" });
    const chunk = {
      choices: [{ index: 0, delta: { content: "ok" }, finish_reason: "stop" }],
    };
    res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    res.write("data: [DONE]\n\n");
    res.end();
  });
  server.on("connection", () => connections++);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, received, connections: () => connections };
}

const request = (messages: string[]): ChatRequest => ({
  model: "deepseek-chat",
  messages,
  tools: '[{"type":"function","function":{"name":"read_file"}}]',
});

describe("the client's HTTP transport", () => {
  it("sends exactly the body's bytes, multi-byte characters included, with their length", async () => {
    const { url, received } = await serve();
    const client = createChatClient({ baseUrl: url, apiKey: "sk-test" });
    const messages = [
      JSON.stringify({ role: "system", content: "Be brief ✓" }),
      JSON.stringify({ role: "user", content: `héllo ${"x".repeat(70_000)} 😀` }),
    ];
    const events = await collect(client.stream(request(messages)));
    expect(doneOf(events).message.content).toBe("ok");
    const expected = buildRequestBody(request(messages), { stream: true });
    expect(received[0]?.body).toBe(expected);
    expect(received[0]?.contentLength).toBe(String(Buffer.byteLength(expected)));
  });

  it("reuses one connection for consecutive requests once each answer is complete", async () => {
    const { url, received, connections } = await serve();
    const client = createChatClient({ baseUrl: url, apiKey: "sk-test" });
    const log = [JSON.stringify({ role: "user", content: "one" })];
    for (let i = 0; i < 3; i++) {
      expect(doneOf(await collect(client.stream(request(log)))).message.content).toBe("ok");
      log.push(JSON.stringify({ role: "assistant", content: "ok" }));
    }
    expect(received).toHaveLength(3);
    expect(received[1]?.socket).toBe(received[0]?.socket);
    expect(received[2]?.socket).toBe(received[0]?.socket);
    expect(connections()).toBe(1);
  });
});
