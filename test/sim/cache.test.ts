import { afterEach, describe, expect, it } from "vitest";
import { createChatClient } from "../../src/llm/client.js";
import type { ChatClient } from "../../src/llm/types.js";
import { CACHE_UNIT, type Simulator, script, startSimulator } from "../../src/sim/index.js";
import { collect, doneOf } from "../llm/helpers.js";

let sim: Simulator | null = null;
afterEach(async () => {
  await sim?.close();
  sim = null;
});

const SYSTEM = JSON.stringify({
  role: "system",
  content: `You are a careful coding agent. ${"Follow the project's conventions and explain briefly. ".repeat(30)}`,
});
const user = (text: string) => JSON.stringify({ role: "user", content: text });
const assistant = (text: string) => JSON.stringify({ role: "assistant", content: text });

async function send(client: ChatClient, messages: string[]) {
  return doneOf(await collect(client.stream({ model: "deepseek-v4-flash", messages })));
}

async function start(replies: number) {
  const s = script();
  for (let i = 0; i < replies; i++) s.text(`answer ${i}`);
  sim = await startSimulator({ script: s });
  return sim;
}

describe("simulated context cache", () => {
  it("hits a shared prefix in whole 64-token units, never more than was shared", async () => {
    const s = await start(2);
    const client = createChatClient({ baseUrl: s.url, apiKey: "key-a" });
    const first = [SYSTEM, user("What does this project do?")];
    await send(client, first);
    const second = [...first, assistant("answer 0"), user("And how do I test it?")];
    const done = await send(client, second);
    const [r0, r1] = s.requests;
    expect(r0?.hitTokens).toBe(0);
    expect(r0?.missTokens).toBe(r0?.promptTokens);
    const hit = r1?.hitTokens ?? 0;
    expect(hit).toBeGreaterThan(0);
    expect(hit % CACHE_UNIT).toBe(0);
    // the whole first prompt was shared: the hit is it, rounded down to a unit
    expect(hit).toBeLessThanOrEqual(r0?.promptTokens ?? 0);
    expect(hit).toBeGreaterThan((r0?.promptTokens ?? 0) - CACHE_UNIT);
    expect(r1?.missTokens).toBe((r1?.promptTokens ?? 0) - hit);
    expect(done.usage).toMatchObject({ cacheHitTokens: hit, promptTokens: r1?.promptTokens });
    expect(r1?.cacheableLimitTokens).toBe(hit);
  });

  it("keeps keys isolated", async () => {
    const s = await start(2);
    const messages = [SYSTEM, user("hello")];
    await send(createChatClient({ baseUrl: s.url, apiKey: "key-a" }), messages);
    await send(createChatClient({ baseUrl: s.url, apiKey: "key-b" }), messages);
    expect(s.requests[1]?.promptTokens).toBe(s.requests[0]?.promptTokens);
    expect(s.requests[1]?.hitTokens).toBe(0);
    expect(s.requests[0]?.keyId).not.toBe(s.requests[1]?.keyId);
  });

  it("never caches a prompt shorter than one unit", async () => {
    const s = await start(2);
    const client = createChatClient({ baseUrl: s.url, apiKey: "key-a" });
    await send(client, [user("hi")]);
    await send(client, [user("hi")]);
    expect(s.requests[1]?.promptTokens).toBeLessThan(CACHE_UNIT);
    expect(s.requests[1]?.hitTokens).toBe(0);
  });

  it("counts a changed early byte as a miss of everything after it, against the cacheable limit", async () => {
    const s = await start(2);
    const client = createChatClient({ baseUrl: s.url, apiKey: "key-a" });
    const stamped = (t: string) =>
      JSON.stringify({ role: "system", content: `Time: ${t}. ${JSON.parse(SYSTEM).content}` });
    await send(client, [stamped("10:00:01"), user("What does this project do?")]);
    await send(client, [
      stamped("10:00:02"),
      user("What does this project do?"),
      assistant("answer 0"),
      user("more"),
    ]);
    const r1 = s.requests[1];
    expect(r1?.hitTokens).toBe(0);
    expect(r1?.cacheableLimitTokens).toBeGreaterThan(CACHE_UNIT * 3);
    expect(r1?.continuesRequest).toBe(0);
  });

  it("lists the records over HTTP", async () => {
    const s = await start(1);
    await send(createChatClient({ baseUrl: s.url, apiKey: "key-a" }), [SYSTEM, user("hi")]);
    const res = await fetch(`${s.url}/_sim/requests`);
    const records: unknown = await res.json();
    expect(records).toEqual(JSON.parse(JSON.stringify(s.requests)));
    expect(JSON.stringify(records)).not.toContain("key-a");
  });
});
