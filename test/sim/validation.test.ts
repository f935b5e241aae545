import { afterEach, describe, expect, it } from "vitest";
import { type Simulator, script, startSimulator } from "../../src/sim/index.js";

let sim: Simulator | null = null;
afterEach(async () => {
  await sim?.close();
  sim = null;
});

async function post(
  body: unknown,
  headers: Record<string, string> = { authorization: "Bearer k" },
) {
  sim ??= await startSimulator({ script: script().text("ok") });
  const res = await fetch(`${sim.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, body: await res.text() };
}

const tool = (name: string) => ({
  type: "function",
  function: { name, description: "d", parameters: { type: "object" } },
});
const base = { model: "deepseek-v4-flash", messages: [{ role: "user", content: "hi" }] };

function errorMessage(body: string): string {
  const parsed: { error: { message: string } } = JSON.parse(body);
  return parsed.error.message;
}

describe("request validation like DeepSeek", () => {
  it("answers a non-streamed completion", async () => {
    const { status, body } = await post(base);
    expect(status).toBe(200);
    const parsed = JSON.parse(body);
    expect(parsed.object).toBe("chat.completion");
    expect(parsed.choices[0].message).toEqual({ role: "assistant", content: "ok" });
    expect(parsed.usage.prompt_tokens).toBe(
      parsed.usage.prompt_cache_hit_tokens + parsed.usage.prompt_cache_miss_tokens,
    );
  });

  it("rejects content given as an array of parts", async () => {
    const { status, body } = await post({
      ...base,
      messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
    });
    expect(status).toBe(400);
    expect(errorMessage(body)).toContain("messages[0].content");
    expect(sim?.remainingReplies()).toBe(1);
  });

  it("takes text and image parts in a user message only for a vision model (keel-sim-vision)", async () => {
    const png = "data:image/png;base64,iVBORw0KGgo=";
    const parts = [
      { type: "text", text: "what is this?" },
      { type: "image_url", image_url: { url: png } },
    ];
    const ok = await post({
      model: "keel-sim-vision",
      messages: [{ role: "user", content: parts }],
    });
    expect(ok.status).toBe(200);
    expect(sim?.requests[0]?.messages[0]).toEqual({
      role: "user",
      content: "what is this?",
      images: [png],
    });
    const remote = await post({
      model: "keel-sim-vision",
      messages: [
        { role: "user", content: [{ type: "image_url", image_url: { url: "https://x/y.png" } }] },
      ],
    });
    expect(remote.status).toBe(400);
    expect(errorMessage(remote.body)).toContain("messages[0].content[0]");
    const inTool = await post({
      model: "keel-sim-vision",
      messages: [
        { role: "user", content: "hi" },
        {
          role: "assistant",
          content: "",
          tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: "c", content: parts },
      ],
    });
    expect(inTool.status).toBe(400);
    const deepseek = await post({ ...base, messages: [{ role: "user", content: parts }] });
    expect(deepseek.status).toBe(400);
    expect(errorMessage(deepseek.body)).toContain("expected a string");
  });

  it("rejects a bad tool name", async () => {
    const { status, body } = await post({ ...base, tools: [tool("read file")] });
    expect(status).toBe(400);
    expect(errorMessage(body)).toContain("tools[0].function.name");
  });

  it("rejects more than 128 tools", async () => {
    const tools = Array.from({ length: 129 }, (_, i) => tool(`t${i}`));
    const { status, body } = await post({ ...base, tools });
    expect(status).toBe(400);
    expect(errorMessage(body)).toContain("at most 128");
    expect((await post({ ...base, tools: tools.slice(0, 128) })).status).toBe(200);
  });

  it("requires the word json in JSON mode", async () => {
    const { status, body } = await post({ ...base, response_format: { type: "json_object" } });
    expect(status).toBe(400);
    expect(errorMessage(body)).toContain("json");
  });

  it("rejects a request without an API key", async () => {
    expect((await post(base, {})).status).toBe(401);
  });

  it("rejects malformed JSON and a missing tool_call_id", async () => {
    expect((await post("{not json")).status).toBe(400);
    const { status, body } = await post({ ...base, messages: [{ role: "tool", content: "x" }] });
    expect(status).toBe(400);
    expect(errorMessage(body)).toContain("tool_call_id");
    expect(sim?.requests.map((r) => r.status)).toEqual([400, 400]);
  });

  it("requires every tool call to be answered, right after it", async () => {
    const call = (id: string) => ({
      id,
      type: "function",
      function: { name: "shell", arguments: "{}" },
    });
    const asked = { role: "assistant", content: "", tool_calls: [call("a"), call("b")] };
    const answer = (id: string) => ({ role: "tool", tool_call_id: id, content: "ok" });
    const user = { role: "user", content: "go" };
    const unanswered = await post({ ...base, messages: [user, asked, answer("a"), user] });
    expect(unanswered.status).toBe(400);
    expect(errorMessage(unanswered.body)).toContain("insufficient tool messages");
    const stray = await post({
      ...base,
      messages: [user, asked, answer("a"), answer("b"), answer("c")],
    });
    expect(stray.status).toBe(400);
    expect(errorMessage(stray.body)).toContain("must be a response to a preceding message");
    const fine = await post({ ...base, messages: [user, asked, answer("b"), answer("a"), user] });
    expect(fine.status).toBe(200);
  });

  it("answers 400 when a thinking-mode tool turn comes back without its reasoning_content", async () => {
    sim = await startSimulator({
      script: [
        { reasoning: "", toolCalls: [{ name: "shell", arguments: {}, id: "call_t" }] },
        { text: "fine" },
        { text: "fine too" },
      ],
    });
    const url = `${sim.url}/chat/completions`;
    const send = async (body: unknown) => {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer k" },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: await res.text() };
    };
    expect((await send(base)).status).toBe(200);
    const call = { id: "call_t", type: "function", function: { name: "shell", arguments: "{}" } };
    const result = { role: "tool", tool_call_id: "call_t", content: "ok" };
    const user = { role: "user", content: "go" };
    const dropped = { role: "assistant", content: "", tool_calls: [call] };
    const missing = await send({ ...base, messages: [user, dropped, result, user] });
    expect(missing.status).toBe(400);
    expect(errorMessage(missing.body)).toContain("reasoning_content");
    expect(errorMessage(missing.body)).toContain("messages[1]");
    expect(sim.remainingReplies()).toBe(2);
    const kept = { ...dropped, reasoning_content: "" };
    expect((await send({ ...base, messages: [user, kept, result, user] })).status).toBe(200);
    const off = {
      ...base,
      thinking: { type: "disabled" },
      messages: [user, dropped, result, user],
    };
    expect((await send(off)).status).toBe(200);
  });
});
