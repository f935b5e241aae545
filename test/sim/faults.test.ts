import { afterEach, describe, expect, it } from "vitest";
import { createChatClient } from "../../src/llm/client.js";
import type { StreamEvent } from "../../src/llm/types.js";
import { type ReplyInput, type Simulator, script, startSimulator } from "../../src/sim/index.js";
import { collect, doneOf, recordingSleep, userRequest } from "../llm/helpers.js";

let sim: Simulator | null = null;
afterEach(async () => {
  await sim?.close();
  sim = null;
});

async function run(...replies: ReplyInput[]): Promise<StreamEvent[][]> {
  sim = await startSimulator({ script: script(...replies) });
  const client = createChatClient({ baseUrl: sim.url, apiKey: "k", maxRetries: 0 });
  const out: StreamEvent[][] = [];
  for (let i = 0; i < replies.length; i++)
    out.push(await collect(client.stream(userRequest(`q${i}`))));
  return out;
}

const texts = (events: StreamEvent[], type: "text_delta" | "reasoning_delta") =>
  events.flatMap((e) => (e.type === type ? [e.text] : []));

describe("scripted faults", () => {
  it("leaks DSML tool calls into the content, split across chunks", async () => {
    const [events = []] = await run((r) =>
      r.text("Let me look. ").leakDsml({ name: "read_file", arguments: { path: "a.ts" } }),
    );
    const done = doneOf(events);
    expect(done.message.tool_calls).toBeUndefined();
    const content = done.message.content ?? "";
    expect(content).toContain("<｜DSML｜function_calls>");
    expect(content).toContain('<｜DSML｜invoke name="read_file">');
    expect(content).toContain(
      '<｜DSML｜parameter name="path" string="true">a.ts</｜DSML｜parameter>',
    );
    expect(texts(events, "text_delta").some((t) => t.includes("<｜DSML｜function_calls>"))).toBe(
      false,
    );
  });

  it("leaks V3-style tool calls into the reasoning", async () => {
    const [events = []] = await run((r) =>
      r.leakDsml({ name: "shell", arguments: { command: "ls" } }, { in: "reasoning", style: "v3" }),
    );
    const done = doneOf(events);
    expect(done.message.reasoning_content).toContain(
      "<｜tool▁call▁begin｜>function<｜tool▁sep｜>shell",
    );
    expect(done.message.content).toBe("");
  });

  it("truncates arguments with finish_reason length", async () => {
    const args = { path: "src/main.ts", content: "export const x = 1;\n".repeat(5) };
    const [events = []] = await run((r) => r.truncatedArgs("write_file", args));
    const done = doneOf(events);
    expect(done.finishReason).toBe("length");
    const sent = done.message.tool_calls?.[0]?.function.arguments ?? "";
    expect(JSON.stringify(args).startsWith(sent)).toBe(true);
    expect(sent.length).toBeLessThan(JSON.stringify(args).length);
    expect(() => JSON.parse(sent)).toThrow();
  });

  it("sends a json prefix, trailing garbage and empty arguments as scripted", async () => {
    const runs = await run(
      (r) => r.jsonPrefix("shell", { command: "ls" }),
      (r) => r.trailingGarbage("shell", { command: "ls" }, "}\n```"),
      (r) => r.emptyArgs("read_file"),
    );
    const args = runs.map((events) => doneOf(events).message.tool_calls?.[0]?.function.arguments);
    expect(args).toEqual(['json\n{"command":"ls"}', '{"command":"ls"}}\n```', "{}"]);
  });

  it("repeats an identical call", async () => {
    const runs = await run(
      (r) => r.tool("grep", { pattern: "TODO" }).repeat(3),
      (r) => r.tool("grep", { pattern: "TODO" }),
      (r) => r.tool("grep", { pattern: "TODO" }),
    );
    const calls = runs.map((events) => doneOf(events).message.tool_calls?.[0]?.function);
    expect(calls).toEqual(Array(3).fill({ name: "grep", arguments: '{"pattern":"TODO"}' }));
    expect(sim?.remainingReplies()).toBe(2);
  });

  it("burns the budget on reasoning", async () => {
    const [events = []] = await run((r) => r.reasoningExhaustsBudget());
    const done = doneOf(events);
    expect(done).toMatchObject({ finishReason: "length", message: { content: "" } });
    expect(done.message.reasoning_content?.length).toBeGreaterThan(100);
    expect(done.message.tool_calls).toBeUndefined();
  });

  it.each([429, 500, 503])("answers HTTP %i with a DeepSeek error body", async (status) => {
    sim = await startSimulator({ script: script().error(status, { message: "scripted failure" }) });
    const res = await fetch(`${sim.url}/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer k" },
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "x" }] }),
    });
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject({ error: { message: "scripted failure" } });
  });

  it("delivers the same content with latency and keep-alives", async () => {
    const { sleep } = recordingSleep();
    sim = await startSimulator({
      script: script().reply((r) =>
        r.text("slow but sure").keepAlive(2).latency({ firstByteMs: 20, chunkDelayMs: 5 }),
      ),
    });
    const client = createChatClient({ baseUrl: sim.url, apiKey: "k", sleep });
    expect(doneOf(await collect(client.stream(userRequest("x")))).message.content).toBe(
      "slow but sure",
    );
  });
});
