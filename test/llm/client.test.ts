import { afterEach, describe, expect, it } from "vitest";
import type { ChatClientOptions } from "../../src/llm/client.js";
import { createChatClient } from "../../src/llm/client.js";
import { completeJson } from "../../src/llm/complete-json.js";
import { type Simulator, script, startSimulator } from "../../src/sim/index.js";
import { collect, doneOf, errorOf, recordingSleep, userRequest } from "./helpers.js";

const KEY = "sk-test-secret-key-0123456789";
let sim: Simulator | null = null;

afterEach(async () => {
  await sim?.close();
  sim = null;
});

async function setup(
  s: Parameters<typeof startSimulator>[0]["script"],
  options: Partial<ChatClientOptions> = {},
) {
  sim = await startSimulator({ script: s });
  const { delays, sleep } = recordingSleep();
  const client = createChatClient({
    baseUrl: sim.url,
    apiKey: KEY,
    sleep,
    random: () => 0,
    ...options,
  });
  return { sim, client, delays };
}

describe("createChatClient against the simulator", () => {
  it("streams text in several deltas and assembles the message", async () => {
    const text = "Hello there! This answer is long enough to be streamed in several pieces.";
    const { client } = await setup(script().text(text));
    const events = await collect(client.stream(userRequest("hi")));
    const deltas = events.filter((e) => e.type === "text_delta");
    expect(deltas.length).toBeGreaterThan(2);
    const done = doneOf(events);
    expect(done.message).toEqual({ role: "assistant", content: text });
    expect(done.finishReason).toBe("stop");
  });

  it("surfaces reasoning before text", async () => {
    const { client } = await setup(
      script().reply((r) => r.reasoning("Think about it first.").text("Answer.")),
    );
    const events = await collect(client.stream(userRequest("why?")));
    const firstText = events.findIndex((e) => e.type === "text_delta");
    const lastReasoning = events.map((e) => e.type).lastIndexOf("reasoning_delta");
    expect(lastReasoning).toBeGreaterThanOrEqual(0);
    expect(lastReasoning).toBeLessThan(firstText);
    const done = doneOf(events);
    expect(done.message.reasoning_content).toBe("Think about it first.");
    expect(done.usage?.reasoningTokens).toBeGreaterThan(0);
    expect(done.usage?.completionTokens).toBeGreaterThan(done.usage?.reasoningTokens ?? 0);
  });

  it("keeps an empty reasoning_content in thinking mode (it must be passed back)", async () => {
    const { client } = await setup(
      script(
        { reasoning: "", toolCalls: [{ name: "list_dir", arguments: { path: "." } }] },
        { text: "no thinking here" },
      ),
    );
    const thinking = doneOf(await collect(client.stream(userRequest("ls"))));
    expect(thinking.message.reasoning_content).toBe("");
    const plain = doneOf(await collect(client.stream(userRequest("hi"))));
    expect(plain.message).not.toHaveProperty("reasoning_content");
  });

  it("assembles tool calls from id, name and argument fragments by index", async () => {
    const args0 = { command: "ls -la src && echo done", timeout_ms: 5000 };
    const args1 = { path: "README.md" };
    const { client } = await setup(
      script().reply((r) => r.tool("shell", args0, { id: "call_a" }).tool("read_file", args1)),
    );
    const events = await collect(client.stream(userRequest("list")));
    const fragments = events.filter((e) => e.type === "tool_call_delta" && e.index === 0);
    expect(fragments.length).toBeGreaterThan(2);
    const done = doneOf(events);
    expect(done.finishReason).toBe("tool_calls");
    const calls = done.message.tool_calls ?? [];
    expect(calls.map((c) => c.function.name)).toEqual(["shell", "read_file"]);
    expect(calls[0]?.id).toBe("call_a");
    expect(calls[1]?.id).toMatch(/^call_/);
    expect(JSON.parse(calls[0]?.function.arguments ?? "")).toEqual(args0);
    expect(JSON.parse(calls[1]?.function.arguments ?? "")).toEqual(args1);
  });

  it("reports DeepSeek usage fields", async () => {
    const { client, sim } = await setup(script().text("ok"));
    const done = doneOf(await collect(client.stream(userRequest("count my tokens please"))));
    const record = sim.requests[0];
    expect(done.usage).toEqual({
      promptTokens: record?.promptTokens,
      cacheHitTokens: record?.hitTokens,
      cacheMissTokens: record?.missTokens,
      completionTokens: record?.completionTokens,
      reasoningTokens: 0,
      // The simulator's system_fingerprint marks its usage (keel stats counts it apart).
      simulated: true,
    });
    expect(done.usage?.promptTokens).toBeGreaterThan(0);
  });

  it("sends messages and tools as the exact bytes given", async () => {
    const { client, sim } = await setup(script().text("ok"));
    const messages = ['{"role":"system","content":"be brief"}', '{"content":"hi","role":"user"}'];
    const tools =
      '[{"function":{"description":"run","name":"shell","parameters":{"type":"object"}},"type":"function"}]';
    doneOf(await collect(client.stream({ model: "deepseek-v4-flash", messages, tools })));
    expect(sim.requests[0]?.messagesText).toBe(`[${messages.join(",")}]`);
    expect(sim.requests[0]?.messageTexts).toEqual(messages);
    expect(sim.requests[0]?.toolsText).toBe(tools);
  });

  it("retries 429 honouring Retry-After, then succeeds", async () => {
    const { client, sim, delays } = await setup(
      script().error(429, { retryAfter: 2, times: 2 }).text("ok"),
    );
    const events = await collect(client.stream(userRequest("hi")));
    const retries = events.filter((e) => e.type === "retry");
    expect(retries).toHaveLength(2);
    expect(retries.map((r) => r.type === "retry" && r.status)).toEqual([429, 429]);
    expect(delays).toEqual([2000, 2000]);
    expect(doneOf(events).message.content).toBe("ok");
    expect(sim.requests).toHaveLength(3);
  });

  it("retries 500 and 503 with exponential backoff", async () => {
    const { client, delays } = await setup(script().error(500).error(503).text("ok"), {
      baseDelayMs: 100,
    });
    const events = await collect(client.stream(userRequest("hi")));
    expect(
      events.filter((e) => e.type === "retry").map((e) => e.type === "retry" && e.status),
    ).toEqual([500, 503]);
    // random() = 0 gives the lower jitter bound: half of base·2^(attempt-1)
    expect(delays).toEqual([50, 100]);
    expect(doneOf(events).message.content).toBe("ok");
  });

  it("gives up after maxRetries with a retryable error", async () => {
    const { client, sim } = await setup(script().error(503, { times: 10 }), { maxRetries: 2 });
    const events = await collect(client.stream(userRequest("hi")));
    expect(events.filter((e) => e.type === "retry")).toHaveLength(2);
    const error = errorOf(events);
    expect(error).toMatchObject({ status: 503, retryable: true });
    expect(error.message).toContain("Server Overloaded");
    expect(sim.requests).toHaveLength(3);
  });

  it("does not retry a 400 and surfaces the error message in one line", async () => {
    const { client, sim } = await setup(script().text("never"));
    const bad = {
      model: "deepseek-v4-flash",
      messages: ['{"role":"user","content":[{"type":"text","text":"hi"}]}'],
    };
    const events = await collect(client.stream(bad));
    expect(events.filter((e) => e.type === "retry")).toHaveLength(0);
    const error = errorOf(events);
    expect(error).toMatchObject({ status: 400, retryable: false });
    expect(error.message).toContain("expected a string");
    expect(error.message).not.toContain("\n");
    expect(sim.requests).toHaveLength(1);
  });

  it("ends with an error event when aborted mid-stream", async () => {
    const long = "word ".repeat(400);
    const { client } = await setup(
      script().reply((r) => r.text(long).latency({ chunkDelayMs: 5 })),
    );
    const controller = new AbortController();
    const events = [];
    for await (const e of client.stream(userRequest("go", { signal: controller.signal }))) {
      events.push(e);
      if (e.type === "text_delta") controller.abort();
    }
    expect(errorOf(events)).toMatchObject({ message: "request aborted", retryable: false });
    expect(events.some((e) => e.type === "done")).toBe(false);
  });

  it("never retries once the body has started", async () => {
    const { client, sim } = await setup(
      script()
        .reply((r) => r.text("partial answer here").disconnectAfter(2))
        .text("second"),
    );
    const events = await collect(client.stream(userRequest("hi")));
    expect(events.filter((e) => e.type === "retry")).toHaveLength(0);
    expect(errorOf(events)).toMatchObject({ status: null, retryable: false });
    expect(errorOf(events).message).toContain("interrupted");
    expect(sim.requests).toHaveLength(1);
    expect(sim.remainingReplies()).toBe(1);
  });

  it("retries a connection dropped before any body byte", async () => {
    const { client, sim } = await setup(
      script()
        .reply((r) => r.text("lost").disconnectAfter(0))
        .text("ok"),
    );
    const events = await collect(client.stream(userRequest("hi")));
    expect(events.filter((e) => e.type === "retry")).toHaveLength(1);
    expect(doneOf(events).message.content).toBe("ok");
    expect(sim.requests).toHaveLength(2);
  });

  it("skips keep-alive comments", async () => {
    const { client } = await setup(script().reply((r) => r.keepAlive(3).text("awake")));
    expect(doneOf(await collect(client.stream(userRequest("hi")))).message.content).toBe("awake");
  });

  it("never puts the API key in an error", async () => {
    const { client } = await setup(
      script().reply((r) =>
        r.error(401, { message: `Authentication Fails, Your api key: ${KEY} is invalid` }),
      ),
    );
    const error = errorOf(await collect(client.stream(userRequest("hi"))));
    expect(error.status).toBe(401);
    expect(error.message).not.toContain(KEY);
    expect(error.message).toContain("Authentication Fails");
  });

  it("reports an unreachable endpoint as a network error after retrying", async () => {
    const { sim: s } = await setup(script());
    const url = s.url;
    await s.close();
    sim = null;
    const { delays, sleep } = recordingSleep();
    const client = createChatClient({ baseUrl: url, apiKey: KEY, sleep, maxRetries: 1 });
    const events = await collect(client.stream(userRequest("hi")));
    expect(delays).toHaveLength(1);
    const error = errorOf(events);
    expect(error.message).toContain("network error");
    expect(error.message).toContain(`cannot reach ${new URL(url).host}`);
    expect(error.message).not.toContain(KEY);
    expect(error.retryable).toBe(true);
  });
});

describe("completeJson", () => {
  it("returns the text of a JSON-mode answer", async () => {
    const { client, sim } = await setup(
      script().reply((r) => r.text('{"ok":true,"reason":"fine"}').when({ jsonMode: true })),
    );
    const result = await completeJson(client, userRequest("Answer in JSON: is this fine?"));
    expect(result).toMatchObject({ ok: true, text: '{"ok":true,"reason":"fine"}' });
    expect(sim.requests[0]?.rawBody).toContain('"response_format":{"type":"json_object"}');
  });

  it("returns an error value instead of throwing", async () => {
    const { client } = await setup(script().text("unused"));
    const result = await completeJson(client, userRequest("no magic word here"));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain("json");
  });
});

describe("an error body that is a web page", () => {
  it("is named by its title, with a hint about the base URL, not pasted whole", async () => {
    const { errorBodyMessage } = await import("../../src/llm/chunk.js");
    const page = `<!DOCTYPE html>\n<html><head><title>501 Not Implemented</title></head><body>${"<p>nginx</p>".repeat(100)}</body></html>`;
    expect(errorBodyMessage(page)).toBe(
      'the endpoint answered with an HTML page ("501 Not Implemented"), not the API; is the base URL right (often it ends in /v1)?',
    );
    expect(errorBodyMessage(page, 502)).toBe(
      'the endpoint answered with an HTML page ("501 Not Implemented")',
    );
    expect(errorBodyMessage('{"error":{"message":"bad key"}}')).toBe("bad key");
  });
});
