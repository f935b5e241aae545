import { describe, expect, it } from "vitest";
import { buildRequestBody, buildRequestBodyChunks } from "../../src/llm/request-body.js";
import type { ChatRequest } from "../../src/llm/types.js";

const req = (messages: string[]): ChatRequest => ({
  model: "deepseek-chat",
  messages,
  tools: '[{"type":"function","function":{"name":"read_file"}}]',
  temperature: 0,
});

const message = (i: number) =>
  JSON.stringify({ role: "user", content: `message ${i} ✓ ${"x".repeat(i)}` });

describe("buildRequestBodyChunks", () => {
  it("is byte for byte the string body, with the right length", () => {
    for (const messages of [[], [message(1)], [message(1), message(2), message(3)]]) {
      const body = buildRequestBodyChunks(req(messages), { stream: true });
      const bytes = Buffer.concat(body.chunks);
      expect(bytes.toString("utf8")).toBe(buildRequestBody(req(messages), { stream: true }));
      expect(body.byteLength).toBe(bytes.byteLength);
    }
  });

  it("reuses each message's encoded bytes in later requests instead of encoding them again", () => {
    const log = [message(10), message(20)];
    const first = buildRequestBodyChunks(req(log), { stream: true });
    log.push(message(30));
    const second = buildRequestBodyChunks(req(log), { stream: true });
    // chunks: head, m0, ",m1", ",m2", tail; the first message's bytes are a view of its cached
    // ",m0" (a fresh view each time, over the same memory).
    expect(second.chunks).toHaveLength(5);
    expect(second.chunks[1]?.buffer).toBe(first.chunks[1]?.buffer);
    expect(second.chunks[1]?.byteOffset).toBe(first.chunks[1]?.byteOffset);
    expect(second.chunks[2]).toBe(first.chunks[2]);
  });
});
