import { describe, expect, it } from "vitest";
import { resolveToolName, scavengeToolCalls } from "../../../src/agent/repair/scavenge.js";

const TOOLS = ["read_file", "write_file", "shell", "grep"];

const dsml = (bar: string, wrapper = "function_calls") =>
  `<${bar}DSML${bar}${wrapper}>\n` +
  `<${bar}DSML${bar}invoke name="read_file">\n` +
  `<${bar}DSML${bar}parameter name="path" string="true">src/a.ts</${bar}DSML${bar}parameter>\n` +
  `<${bar}DSML${bar}parameter name="limit" string="false">20</${bar}DSML${bar}parameter>\n` +
  `</${bar}DSML${bar}invoke>\n` +
  `</${bar}DSML${bar}${wrapper}>`;

function scav(
  content: string,
  opts: {
    reasoning?: string;
    declared?: Array<{ name: string; args: Record<string, unknown> }>;
  } = {},
) {
  return scavengeToolCalls({
    content,
    reasoning: opts.reasoning ?? "",
    allowedTools: TOOLS,
    declared: opts.declared ?? [],
  });
}

function argsOf(r: ReturnType<typeof scav>) {
  return r.calls.map((c) => ({ name: c.name, args: JSON.parse(c.arguments) }));
}

describe("scavengeToolCalls: markup", () => {
  const cases: Array<{
    name: string;
    content: string;
    calls: Array<{ name: string; args: unknown }>;
    text: string;
  }> = [
    {
      name: "DSML with full-width bars",
      content: `Let me look.\n\n${dsml("｜")}`,
      calls: [{ name: "read_file", args: { path: "src/a.ts", limit: 20 } }],
      text: "Let me look.",
    },
    {
      name: "DSML with ASCII bars",
      content: `${dsml("|")}\nthen more`,
      calls: [{ name: "read_file", args: { path: "src/a.ts", limit: 20 } }],
      text: "then more",
    },
    {
      name: "DSML with the V4 tool_calls wrapper",
      content: dsml("｜", "tool_calls"),
      calls: [{ name: "read_file", args: { path: "src/a.ts", limit: 20 } }],
      text: "",
    },
    {
      name: "DSML invoke with a direct JSON body",
      content:
        '<｜DSML｜function_calls>\n<｜DSML｜invoke name="shell">\n{"command": "ls -la"}\n</｜DSML｜invoke>\n</｜DSML｜function_calls>',
      calls: [{ name: "shell", args: { command: "ls -la" } }],
      text: "",
    },
    {
      name: "a bare DSML invoke without the wrapper",
      content:
        'ok <｜DSML｜invoke name="shell"><｜DSML｜parameter name="command" string="true">npm test</｜DSML｜parameter></｜DSML｜invoke> done',
      calls: [{ name: "shell", args: { command: "npm test" } }],
      text: "ok  done",
    },
    {
      name: "two invokes in one block, multi-line string value kept exactly",
      content:
        "<｜DSML｜function_calls>" +
        '<｜DSML｜invoke name="write_file"><｜DSML｜parameter name="path" string="true">x.txt</｜DSML｜parameter>' +
        '<｜DSML｜parameter name="content" string="true">line 1\n  line 2\n</｜DSML｜parameter></｜DSML｜invoke>' +
        '<｜DSML｜invoke name="grep"><｜DSML｜parameter name="pattern" string="true">TODO</｜DSML｜parameter>' +
        '<｜DSML｜parameter name="ignore_case" string="false">true</｜DSML｜parameter></｜DSML｜invoke>' +
        "</｜DSML｜function_calls>",
      calls: [
        { name: "write_file", args: { path: "x.txt", content: "line 1\n  line 2\n" } },
        { name: "grep", args: { pattern: "TODO", ignore_case: true } },
      ],
      text: "",
    },
    {
      name: "legacy V3 form with a json fence",
      content:
        "Checking.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>read_file\n```json\n" +
        '{"path": "README.md"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
      calls: [{ name: "read_file", args: { path: "README.md" } }],
      text: "Checking.",
    },
    {
      name: "legacy V3.1 form NAME<sep>JSON, two calls",
      content:
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>shell<｜tool▁sep｜>" +
        '{"command":"ls"}<｜tool▁call▁end｜><｜tool▁call▁begin｜>read_file<｜tool▁sep｜>{"path":"a"}' +
        "<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
      calls: [
        { name: "shell", args: { command: "ls" } },
        { name: "read_file", args: { path: "a" } },
      ],
      text: "",
    },
    {
      name: "legacy form with ASCII bars and underscores",
      content:
        '<|tool_calls_begin|><|tool_call_begin|>shell<|tool_sep|>{"command":"pwd"}<|tool_call_end|><|tool_calls_end|>',
      calls: [{ name: "shell", args: { command: "pwd" } }],
      text: "",
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = scav(c.content);
      expect(argsOf(r)).toEqual(c.calls);
      expect(r.content).toBe(c.text);
      expect(r.calls.every((call) => call.source === "content")).toBe(true);
      expect(r.notes.join("\n")).toMatch(/recovered/);
    });
  }

  it("ignores calls to unknown tools but still removes their markup", () => {
    const r = scav(
      'Hi <｜DSML｜invoke name="rm_rf"><｜DSML｜parameter name="p" string="true">/</｜DSML｜parameter></｜DSML｜invoke>',
    );
    expect(r.calls).toEqual([]);
    expect(r.content).toBe("Hi");
    expect(r.notes).toEqual(['ignored a leaked call to unknown tool "rm_rf"']);
  });

  it("marks a DSML call that runs into the end of the text as cut", () => {
    const r = scav(
      '<｜DSML｜function_calls><｜DSML｜invoke name="write_file"><｜DSML｜parameter name="path" string="true">a.txt</｜DSML｜parameter><｜DSML｜parameter name="content" string="true">half of the',
    );
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]?.cutValue).toBe(true);
    expect(JSON.parse(r.calls[0]?.arguments ?? "")).toEqual({
      path: "a.txt",
      content: "half of the",
    });
    expect(r.content).toBe("");
  });

  it("an unclosed invoke whose parameters all closed is not cut", () => {
    const r = scav(
      '<｜DSML｜invoke name="read_file"><｜DSML｜parameter name="path" string="true">a</｜DSML｜parameter>',
    );
    expect(r.calls[0]?.cutValue).toBe(false);
  });

  it("finds the same call in text assembled from stream chunks split anywhere", () => {
    const whole = `Plan: read it.\n${dsml("｜")}`;
    const chunks: string[] = [];
    for (let i = 0; i < whole.length; i += 7) chunks.push(whole.slice(i, i + 7));
    expect(chunks.some((c) => c.includes("｜") && !c.includes("DSML"))).toBe(true);
    const r = scav(chunks.join(""));
    expect(argsOf(r)).toEqual([{ name: "read_file", args: { path: "src/a.ts", limit: 20 } }]);
    expect(r.content).toBe("Plan: read it.");
  });

  it("leaves text without leaked calls byte-identical", () => {
    const text = "  Here is  the plan:\n\n\n1. read {the} file\n";
    const r = scav(text, { reasoning: 'thinking { "a": 1 }' });
    expect(r.content).toBe(text);
    expect(r.reasoning).toBe('thinking { "a": 1 }');
    expect(r.calls).toEqual([]);
    expect(r.notes).toEqual([]);
  });
});

describe("scavengeToolCalls: bare JSON", () => {
  const cases: Array<{ name: string; content: string; args: unknown; text: string }> = [
    {
      name: "{name, arguments} with an object",
      content: 'I will run {"name": "shell", "arguments": {"command": "ls"}} now',
      args: { command: "ls" },
      text: "I will run  now",
    },
    {
      name: "{name, arguments} with a string",
      content: '{"name":"shell","arguments":"{\\"command\\":\\"ls\\"}"}',
      args: { command: "ls" },
      text: "",
    },
    {
      name: '{type: "function", function: {...}} in a json fence',
      content:
        'Calling:\n```json\n{"type":"function","function":{"name":"shell","arguments":{"command":"ls"}}}\n```',
      args: { command: "ls" },
      text: "Calling:",
    },
    {
      name: "{tool_name, tool_args}",
      content: '{"tool_name": "shell", "tool_args": {"command": "ls"}}',
      args: { command: "ls" },
      text: "",
    },
    {
      name: "a namespaced name resolves",
      content: '{"name": "functions.shell", "arguments": {"command": "ls"}}',
      args: { command: "ls" },
      text: "",
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = scav(c.content);
      expect(argsOf(r)).toEqual([{ name: "shell", args: c.args }]);
      expect(r.content).toBe(c.text);
    });
  }

  it("leaves JSON naming an unknown tool, or not shaped like a call, in the text", () => {
    const text = 'Example: {"name": "deploy", "arguments": {}} and {"path": "a"}';
    const r = scav(text);
    expect(r.calls).toEqual([]);
    expect(r.content).toBe(text);
    expect(r.notes).toEqual([]);
  });

  it("ignores invalid JSON (prose is never guessed at)", () => {
    expect(scav('{"name": "shell", "arguments": {"command": "ls"}').calls).toEqual([]);
  });

  it("is not taken from content when the model declared calls", () => {
    const content = '{"name": "shell", "arguments": {"command": "rm -rf build"}}';
    const r = scav(content, { declared: [{ name: "read_file", args: { path: "a" } }] });
    expect(r.calls).toEqual([]);
    expect(r.content).toBe(content);
  });
});

describe("scavengeToolCalls: sources, dedup, limit", () => {
  it("takes calls from the reasoning when nothing else called a tool", () => {
    const r = scav("", { reasoning: `I should read the file.\n${dsml("｜")}` });
    expect(argsOf(r)).toEqual([{ name: "read_file", args: { path: "src/a.ts", limit: 20 } }]);
    expect(r.calls[0]?.source).toBe("reasoning");
    expect(r.reasoning).toBe("I should read the file.");
    expect(r.notes[0]).toMatch(/leaked into the reasoning as DSML markup: read_file/);
  });

  it("does not take reasoning drafts when calls were declared, but cleans their markup", () => {
    const r = scav("", {
      reasoning: `draft:\n${dsml("｜")}`,
      declared: [{ name: "shell", args: { command: "ls" } }],
    });
    expect(r.calls).toEqual([]);
    expect(r.reasoning).toBe("draft:");
  });

  it("does not take reasoning drafts when the content already yielded a call", () => {
    const r = scav('{"name": "shell", "arguments": {"command": "ls"}}', {
      reasoning: '{"name": "shell", "arguments": {"command": "ls -la"}}',
    });
    expect(argsOf(r)).toEqual([{ name: "shell", args: { command: "ls" } }]);
  });

  it("drops a leaked call identical to a declared one (any key order) and removes its markup", () => {
    const r = scav(dsml("｜"), {
      declared: [{ name: "read_file", args: { limit: 20, path: "src/a.ts" } }],
    });
    expect(r.calls).toEqual([]);
    expect(r.content).toBe("");
  });

  it("keeps markup calls that differ from the declared ones", () => {
    const r = scav(dsml("｜"), { declared: [{ name: "shell", args: { command: "ls" } }] });
    expect(argsOf(r)).toEqual([{ name: "read_file", args: { path: "src/a.ts", limit: 20 } }]);
  });

  it("deduplicates leaked calls among themselves", () => {
    const r = scav(`${dsml("｜")}\n${dsml("|")}`);
    expect(r.calls).toHaveLength(1);
  });

  it("recovers at most 4 calls per message", () => {
    const many = Array.from(
      { length: 6 },
      (_, i) => `{"name":"shell","arguments":{"command":"echo ${i}"}}`,
    ).join("\n");
    const r = scav(many);
    expect(argsOf(r).map((c) => c.args.command)).toEqual(["echo 0", "echo 1", "echo 2", "echo 3"]);
    expect(r.notes).toContain("kept the first 4 leaked tool calls and dropped 2 more");
  });
});

describe("resolveToolName", () => {
  const cases: Array<[string, string | undefined]> = [
    ["shell", "shell"],
    [" shell ", "shell"],
    ["functions.shell", "shell"],
    ["Shell", "shell"],
    ["READ_FILE", "read_file"],
    ["deploy", undefined],
    ["functions.deploy", undefined],
  ];
  for (const [name, expected] of cases) {
    it(`${JSON.stringify(name)} → ${expected}`, () => {
      expect(resolveToolName(name, TOOLS)).toBe(expected);
    });
  }
});
