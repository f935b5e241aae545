/**
 * Model streams are bounded (issue 8): a server that sends only keep-alives ends the turn with a
 * clear error after the idle limit; one huge SSE line is parsed in linear work with bounded
 * memory and ends with a clear error past the cap. Real HTTP servers on 127.0.0.1.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createChatClient } from "../../src/llm/client.js";
import { loadLlmConfig } from "../../src/llm/config.js";
import { SseLimitError, SseParser } from "../../src/llm/sse.js";
import type { StreamEvent } from "../../src/llm/types.js";
import { userRequest } from "./helpers.js";

const servers: Server[] = [];
const open: ServerResponse[] = [];
afterEach(async () => {
  for (const res of open.splice(0)) res.destroy();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function serve(handler: (res: ServerResponse) => void): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    open.push(res);
    res.writeHead(200, { "content-type": "text/event-stream" });
    handler(res);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function events(
  baseUrl: string,
  extra: Record<string, unknown> = {},
): Promise<StreamEvent[]> {
  const client = createChatClient({ baseUrl, apiKey: "sk-test", maxRetries: 0, ...extra });
  const out: StreamEvent[] = [];
  for await (const ev of client.stream(userRequest("hi"))) {
    out.push(ev);
  }
  return out;
}

describe("stream idle timeout", () => {
  it("a stream that sends only keep-alives ends with a clear error", async () => {
    let sent = 0;
    const url = await serve((res) => {
      const tick = setInterval(() => {
        if (res.destroyed) return clearInterval(tick);
        res.write(": keep-alive\n\n");
        sent++;
      }, 20);
      res.on("close", () => clearInterval(tick));
    });
    const out = await events(url, { streamIdleMs: 400 });
    expect(out.at(-1)).toMatchObject({ type: "error", retryable: false });
    expect((out.at(-1) as { message: string }).message).toMatch(
      /no data from the model.*keep-alives/,
    );
    expect(sent).toBeGreaterThan(3);
  });

  it("events reset the idle clock: a slow but steady stream completes", async () => {
    const chunks = ["Hel", "lo", " there"];
    const url = await serve((res) => {
      let i = 0;
      const tick = setInterval(() => {
        const c = chunks[i++];
        if (c === undefined) {
          res.end(
            `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\ndata: [DONE]\n\n`,
          );
          return clearInterval(tick);
        }
        res.write(
          `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: c } }] })}\n\n`,
        );
      }, 150);
    });
    const out = await events(url, { streamIdleMs: 400 });
    expect(out.some((e) => e.type === "error")).toBe(false);
  });

  it("KEEL_STREAM_IDLE_MS and streamIdleMs in config.json set it; a bad value is a clear error", async () => {
    const home = "/nonexistent-keel-home-for-test";
    const fromEnv = await loadLlmConfig({ keelHome: home, env: { KEEL_STREAM_IDLE_MS: "1234" } });
    expect(fromEnv.ok && fromEnv.config.streamIdleMs).toBe(1234);
    const def = await loadLlmConfig({ keelHome: home, env: {} });
    expect(def.ok && def.config.streamIdleMs).toBe(300_000);
    const bad = await loadLlmConfig({ keelHome: home, env: { KEEL_STREAM_IDLE_MS: "soon" } });
    expect(bad.ok ? "" : bad.error).toMatch(/KEEL_STREAM_IDLE_MS/);
  });
});

describe("huge SSE lines", () => {
  it("the parser scans each character once and holds at most one line", () => {
    const parser = new SseParser({ maxEventChars: 10_000_000 });
    const piece = new TextEncoder().encode("x".repeat(1000));
    parser.push(new TextEncoder().encode("data: "));
    for (let i = 0; i < 5000; i++) expect(parser.push(piece)).toEqual([]);
    const done = parser.push(new TextEncoder().encode("\n\n"));
    expect(done).toHaveLength(1);
    expect(done[0]).toHaveLength(5_000_000);
    // Linear: every character examined once (the old parser examined ~12.5e9 here).
    expect(parser.stats.scannedChars).toBe(parser.stats.receivedChars);
    expect(parser.stats.peakHeldChars).toBeLessThanOrEqual(5_000_007);
  });

  it("a line over the cap is an SseLimitError, with nothing held afterwards", () => {
    const parser = new SseParser({ maxEventChars: 100_000 });
    const piece = new TextEncoder().encode("y".repeat(1000));
    let thrown: unknown;
    let fed = 0;
    try {
      for (; fed < 1000; fed++) parser.push(piece);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(SseLimitError);
    expect(fed).toBe(100);
    expect(parser.stats.peakHeldChars).toBeLessThanOrEqual(100_000);
  });

  it("a server sending one endless line in many chunks ends the turn with a clear error", async () => {
    let written = 0;
    const url = await serve((res) => {
      res.write("data: ");
      const chunk = "z".repeat(64 * 1024);
      const more = () => {
        while (!res.destroyed && written < 64 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", more);
        }
      };
      more();
    });
    const out = await events(url, { maxSseEventChars: 2 * 1024 * 1024 });
    expect(out.at(-1)).toMatchObject({ type: "error", retryable: false });
    expect((out.at(-1) as { message: string }).message).toMatch(/SSE line over 2097152 characters/);
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });
});
