import { describe, expect, it } from "vitest";
import {
  createStormBreaker,
  prepareToolSpecs,
  type RepairTool,
  repairAssistantMessage,
} from "../../../src/agent/repair/index.js";
import type { ChatMessage, FinishReason, ToolSpec } from "../../../src/llm/types.js";

const spec = (name: string, parameters: Record<string, unknown>): ToolSpec => ({
  type: "function",
  function: { name, description: name, parameters },
});

const SPECS: ToolSpec[] = [
  spec("read_file", {
    type: "object",
    properties: { path: { type: "string" }, limit: { type: "integer" } },
    required: ["path"],
  }),
  spec("write_file", {
    type: "object",
    properties: { path: { type: "string" }, content: { type: "string" } },
    required: ["path", "content"],
  }),
  spec("list_dir", { type: "object", properties: { path: { type: "string" } } }),
  spec("update_profile", {
    type: "object",
    properties: {
      user: {
        type: "object",
        properties: {
          profile: {
            type: "object",
            properties: { name: { type: "string" }, age: { type: "integer" } },
            required: ["name"],
          },
        },
        required: ["profile"],
      },
    },
    required: ["user"],
  }),
];

const { specs: SENT, tools: TOOLS } = prepareToolSpecs(SPECS);

let n = 0;
const makeId = () => `call_t${++n}`;

function repair(
  message: Partial<ChatMessage>,
  opts: { finishReason?: FinishReason; tools?: ReadonlyArray<string | RepairTool> } = {},
) {
  return repairAssistantMessage({
    message: { role: "assistant", content: "", ...message },
    allowedTools: opts.tools ?? TOOLS,
    finishReason: opts.finishReason ?? "tool_calls",
    makeId,
  });
}

const declared = (name: string, args: string, id = "call_1") => ({
  tool_calls: [{ id, type: "function" as const, function: { name, arguments: args } }],
});

describe("repairAssistantMessage: the known model faults", () => {
  const faults: Array<{
    fault: string;
    message: Partial<ChatMessage>;
    finishReason?: FinishReason;
    name: string;
    input?: Record<string, unknown>;
    error?: RegExp;
    text?: string;
  }> = [
    {
      fault: "calls leaked as <｜tool▁calls▁begin｜> text",
      message: {
        content:
          "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>read_file\n```json\n" +
          '{"path": "a.ts"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
      },
      finishReason: "stop",
      name: "read_file",
      input: { path: "a.ts" },
      text: "",
    },
    {
      fault: "DSML calls leaked into content",
      message: {
        content:
          'Reading.<｜DSML｜function_calls><｜DSML｜invoke name="read_file"><｜DSML｜parameter name="path" string="true">a.ts</｜DSML｜parameter>' +
          '<｜DSML｜parameter name="limit" string="false">5</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜function_calls>',
      },
      finishReason: "stop",
      name: "read_file",
      input: { path: "a.ts", limit: 5 },
      text: "Reading.",
    },
    {
      fault: "DSML calls leaked into reasoning_content",
      message: {
        content: "",
        reasoning_content:
          'Need the file. <|DSML|invoke name="read_file"><|DSML|parameter name="path" string="true">b.ts</|DSML|parameter></|DSML|invoke>',
      },
      finishReason: "stop",
      name: "read_file",
      input: { path: "b.ts" },
      text: "",
    },
    {
      fault: 'arguments with a "json\\n" prefix',
      message: declared("read_file", 'json\n{"path": "a.ts"}'),
      name: "read_file",
      input: { path: "a.ts" },
    },
    {
      fault: "arguments in a ```json fence",
      message: declared("read_file", '```json\n{"path": "a.ts"}\n```'),
      name: "read_file",
      input: { path: "a.ts" },
    },
    {
      fault: "arguments with trailing garbage",
      message: declared("read_file", '{"path": "a.ts"}\n</｜DSML｜parameter>'),
      name: "read_file",
      input: { path: "a.ts" },
    },
    {
      fault: "arguments truncated after complete values (brackets closed)",
      message: declared("read_file", '{"path": "a.ts", "limit": 20'),
      finishReason: "length",
      name: "read_file",
      input: { path: "a.ts", limit: 20 },
    },
    {
      fault: "arguments truncated inside a value at max_tokens: not run",
      message: declared(
        "write_file",
        '{"path": "a.ts", "content": "export const a = 1;\\nexport con',
      ),
      finishReason: "length",
      name: "write_file",
      error: /cut off by the output token limit.*not run/,
    },
    {
      fault: "arguments cut inside a value with finish reason tool_calls (a cut stream): not run",
      message: declared("write_file", '{"path": "cfg.txt", "content": "alpha\\nbeta\\ngam'),
      finishReason: "tool_calls",
      name: "write_file",
      error: /end inside a string value.*not run/,
    },
    {
      fault: "DSML truncated inside a value at max_tokens: not run",
      message: {
        content:
          '<｜DSML｜function_calls><｜DSML｜invoke name="write_file"><｜DSML｜parameter name="path" string="true">a.ts</｜DSML｜parameter><｜DSML｜parameter name="content" string="true">half',
      },
      finishReason: "length",
      name: "write_file",
      error: /cut off/,
      text: "",
    },
    {
      fault: "empty {} arguments for a tool with required fields",
      message: declared("read_file", "{}"),
      name: "read_file",
      error: /empty arguments \{\}, but it requires path/,
    },
    {
      fault: "empty string arguments for a tool with required fields",
      message: declared("write_file", ""),
      name: "write_file",
      error: /requires path, content/,
    },
    {
      fault: "empty {} arguments for a tool with no required fields run",
      message: declared("list_dir", "{}"),
      name: "list_dir",
      input: {},
    },
    {
      fault: "arguments that are not JSON at all",
      message: declared("read_file", "path=a.ts"),
      name: "read_file",
      error: /not a valid JSON object and could not be repaired/,
    },
    {
      fault: "a call to a tool that does not exist",
      message: declared("deploy", '{"env": "prod"}'),
      name: "deploy",
      error: /Unknown tool "deploy".*read_file, write_file, list_dir, update_profile/,
    },
  ];

  for (const f of faults) {
    it(f.fault, () => {
      const r = repair(f.message, { finishReason: f.finishReason });
      expect(r.toolCalls).toHaveLength(1);
      const call = r.toolCalls[0]!;
      expect(call.name).toBe(f.name);
      if (f.error) {
        expect(call.error).toMatch(f.error);
        expect(call.input).toEqual({});
      } else {
        expect(call.error).toBeUndefined();
        expect(call.input).toEqual(f.input);
      }
      if (f.text !== undefined) expect(r.text).toBe(f.text);
      // The stored message always carries valid JSON arguments and the call's id.
      const stored = r.message.tool_calls?.[0];
      expect(stored?.id).toBe(call.id);
      expect(() => JSON.parse(stored?.function.arguments ?? "")).not.toThrow();
    });
  }

  it("DSML split across stream chunks, assembled, yields the call", () => {
    const full =
      'I will list it.<｜DSML｜function_calls>\n<｜DSML｜invoke name="list_dir">\n<｜DSML｜parameter name="path" string="true">src</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>';
    const chunks = [full.slice(0, 16), full.slice(16, 17), full.slice(17, 40), full.slice(40)];
    expect(chunks[1]).toBe("｜");
    let assembled = "";
    for (const c of chunks) assembled += c;
    const r = repair({ content: assembled }, { finishReason: "stop" });
    expect(r.toolCalls.map((c) => [c.name, c.input, c.source])).toEqual([
      ["list_dir", { path: "src" }, "content"],
    ]);
    expect(r.text).toBe("I will list it.");
    expect(r.message.content).toBe("I will list it.");
  });

  it("reasoning that used the whole budget: no call, a note", () => {
    const r = repair(
      { content: "", reasoning_content: "Let me think about this at length…" },
      { finishReason: "length" },
    );
    expect(r.toolCalls).toEqual([]);
    expect(r.notes).toEqual([
      "The model used its whole output budget (finish_reason: length) without answering or calling a tool.",
    ]);
  });

  it("an answer cut off at the limit: a different note", () => {
    const r = repair({ content: "The answer is" }, { finishReason: "length" });
    expect(r.notes).toEqual([
      "The model's answer was cut off at the output limit (finish_reason: length).",
    ]);
  });

  it("no note for a normal stop", () => {
    expect(repair({ content: "Done." }, { finishReason: "stop" }).notes).toEqual([]);
  });

  it("the same call repeated in a loop is caught by the storm breaker", () => {
    const breaker = createStormBreaker();
    const verdicts = [1, 2, 3, 4].map((i) => {
      const r = repair(declared("read_file", '{"path":"a.ts"}', `call_${i}`));
      const call = r.toolCalls[0]!;
      return breaker.check({ name: call.name, arguments: call.input }, { mutating: false });
    });
    expect(verdicts).toEqual(["ok", "ok", "stub", "abort"]);
  });
});

describe("repairAssistantMessage: flattening, ids, stored message", () => {
  it("sends a flattened schema for deep tools and re-nests their arguments", () => {
    const sent = SENT.find((s) => s.function.name === "update_profile")!;
    expect(Object.keys(sent.function.parameters.properties as object)).toEqual([
      "user.profile.name",
      "user.profile.age",
    ]);
    expect(SENT.find((s) => s.function.name === "read_file")).toBe(SPECS[0]);
    const r = repair(
      declared("update_profile", '{"user.profile.name": "Ada", "user.profile.age": 36}'),
    );
    expect(r.toolCalls[0]?.input).toEqual({ user: { profile: { name: "Ada", age: 36 } } });
    // The stored message keeps the shape the model used.
    expect(r.message.tool_calls?.[0]?.function.arguments).toBe(
      '{"user.profile.name": "Ada", "user.profile.age": 36}',
    );
  });

  it("keeps valid arguments byte-for-byte and rewrites repaired ones as JSON", () => {
    const ok = repair(declared("read_file", '{ "path" : "a.ts" }'));
    expect(ok.toolCalls[0]?.arguments).toBe('{ "path" : "a.ts" }');
    expect(ok.toolCalls[0]?.repaired).toBe(false);
    expect(ok.notes).toEqual([]);
    const fixed = repair(declared("read_file", 'json\n{"path": "a.ts"}'));
    expect(fixed.toolCalls[0]?.arguments).toBe('{"path":"a.ts"}');
    expect(fixed.toolCalls[0]?.repaired).toBe(true);
    expect(fixed.notes).toEqual(['repaired the read_file call: stripped a leading "json"']);
  });

  it("resolves a near-miss tool name and says so", () => {
    const r = repair(declared("functions.read_file", '{"path": "a"}'));
    expect(r.toolCalls[0]).toMatchObject({
      name: "read_file",
      input: { path: "a" },
      repaired: true,
    });
    expect(r.notes[0]).toMatch(/renamed "functions.read_file" to read_file/);
  });

  it("gives scavenged calls fresh ids and builds the assistant message to store", () => {
    const r = repair(
      {
        content: 'Sure. {"name": "read_file", "arguments": {"path": "x"}}',
        reasoning_content: "thinking",
      },
      { finishReason: "stop" },
    );
    const call = r.toolCalls[0]!;
    expect(call.id).toMatch(/^call_t\d+$/);
    expect(call.source).toBe("content");
    expect(r.message).toEqual({
      role: "assistant",
      content: "Sure.",
      reasoning_content: "thinking",
      tool_calls: [
        {
          id: call.id,
          type: "function",
          function: { name: "read_file", arguments: '{"path":"x"}' },
        },
      ],
    });
  });

  it("a leaked call duplicating a declared one is dropped; the declared one runs once", () => {
    const r = repair({
      content:
        '<｜DSML｜invoke name="read_file"><｜DSML｜parameter name="path" string="true">a.ts</｜DSML｜parameter></｜DSML｜invoke>',
      ...declared("read_file", '{"path":"a.ts"}'),
    });
    expect(r.toolCalls.map((c) => c.source)).toEqual(["tool_calls"]);
    expect(r.text).toBe("");
  });

  it("accepts plain tool names and leaves a message without calls alone", () => {
    const r = repair(
      { content: "Hello", reasoning_content: undefined },
      { tools: ["shell"], finishReason: "stop" },
    );
    expect(r.toolCalls).toEqual([]);
    expect(r.message).toEqual({ role: "assistant", content: "Hello" });
  });

  it("keeps content null when the model sent null and nothing was left", () => {
    const r = repair({ content: null, ...declared("list_dir", "{}") });
    expect(r.message.content).toBeNull();
  });

  it("with plain names, a default random id is used when none is given", () => {
    const r = repairAssistantMessage({
      message: { role: "assistant", content: '{"name":"shell","arguments":{"command":"ls"}}' },
      allowedTools: ["shell"],
    });
    expect(r.toolCalls[0]?.id).toMatch(/^call_[0-9a-f]{24}$/);
  });
});
