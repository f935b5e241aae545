/**
 * The differential harness's own logic, without the real peer: the comparator, the model view,
 * the recording hook and the Anthropic simulator (npm run compat:claude runs the real binary).
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AnthropicSim, startAnthropicSim } from "../../compat/anthropic-sim.js";
import { compareObservations, verdictLine } from "../../compat/compare.js";
import {
  canonicalToolOutput,
  hookParagraphs,
  modelItemsFromAnthropic,
  modelItemsFromChat,
} from "../../compat/model-view.js";
import { claudeSettings, hookCommand, makeCaseDirs, readRecords } from "../../compat/project.js";
import type { CompatCase, Observation } from "../../compat/types.js";

function observation(root: string, over: Partial<Observation> = {}): Observation {
  const project = `${root}/project`;
  return {
    exitCode: 0,
    result: "done",
    hooks: [
      {
        id: "pre",
        payload: {
          session_id: `${root}-session`,
          transcript_path: `${root}/home/t.jsonl`,
          cwd: project,
          hook_event_name: "PreToolUse",
          tool_name: "Bash",
          tool_input: { command: "echo hi" },
          tool_use_id: "toolu_01",
        },
        env: { CLAUDE_PROJECT_DIR: project, CLAUDE_CODE_SESSION_ID: "abc" },
      },
    ],
    modelView: [["text: hello"], ["tool_result: (output 0: hi)"]],
    files: { "out.txt": "hi\n" },
    paths: { root, project, home: `${root}/home` },
    notes: [],
    ...over,
  };
}

describe("compareObservations", () => {
  it("finds nothing when only run-specific values differ (paths, ids, session)", () => {
    expect(compareObservations(observation("/tmp/a"), observation("/tmp/b"))).toEqual([]);
  });

  it("names a payload field that differs, is missing or is extra", () => {
    const ref = observation("/tmp/a");
    const keel = observation("/tmp/b");
    const p = keel.hooks[0]!.payload;
    p.tool_input = { command: "echo ho" };
    p.extra = 1;
    delete p.cwd;
    expect(compareObservations(ref, keel)).toEqual([
      "pre payload cwd missing",
      'pre payload tool_input.command: "echo hi" ≠ "echo ho"',
      "pre payload extra extra",
    ]);
  });

  it("counts a missing or different env variable, not an extra one", () => {
    const keel = observation("/tmp/b");
    keel.hooks[0]!.env.KEEL_PROJECT_DIR = "/tmp/b/project";
    expect(compareObservations(observation("/tmp/a"), keel)).toEqual([]);
    delete keel.hooks[0]!.env.CLAUDE_PROJECT_DIR;
    expect(compareObservations(observation("/tmp/a"), keel)).toEqual([
      "pre env CLAUDE_PROJECT_DIR missing",
    ]);
  });

  it("compares effort and model by presence (each agent's own model and level), not value", () => {
    const ref = observation("/tmp/a");
    ref.hooks[0]!.payload.effort = { level: "medium" };
    ref.hooks[0]!.payload.model = "gpt-5.5";
    expect(compareObservations(ref, observation("/tmp/b"))).toEqual([
      "pre payload effort missing",
      "pre payload model missing",
    ]);
    const keel = observation("/tmp/b");
    keel.hooks[0]!.payload.effort = { level: "high" };
    keel.hooks[0]!.payload.model = "deepseek-v4-flash";
    expect(compareObservations(ref, keel)).toEqual([]);
    ref.hooks[0]!.payload.prompt_id = "p1";
    expect(compareObservations(ref, keel)).toEqual(["pre payload prompt_id missing"]);
  });

  it("reports exit status, result, hooks fired, what the model saw and files", () => {
    const keel = observation("/tmp/b", {
      exitCode: 1,
      result: "other",
      hooks: [],
      modelView: [["text: hello"], ["tool_result: (output 0: ho)"]],
      files: {},
    });
    const diffs = compareObservations(observation("/tmp/a"), keel);
    expect(diffs).toEqual([
      "exit status 0 ≠ 1",
      'result "done" ≠ "other"',
      "hooks fired [pre] ≠ []",
      'model saw (request 2) ["tool_result: (output 0: hi)"] ≠ ["tool_result: (output 0: ho)"]',
      "file out.txt missing",
    ]);
  });

  it("compares hook text in the first request and Keel's tool names as the model knows them", () => {
    const ref = observation("/tmp/a", {
      modelView: [
        ["text: context\n\nSessionStart hook additional context: tabs", "text: hello"],
        ["tool_result: (output 0: hi)", "text: PreToolUse:Bash hook additional context: x"],
      ],
    });
    const keel = observation("/tmp/b", {
      modelView: [
        ["text: SessionStart hook additional context: tabs", "text: hello there"],
        ["tool_result: (output 0: hi)", "text: PreToolUse:shell hook additional context: x"],
      ],
    });
    expect(compareObservations(ref, keel)).toEqual([]);
    keel.modelView[0] = ["text: hello"];
    expect(compareObservations(ref, keel)).toHaveLength(1);
  });
});

describe("verdictLine", () => {
  const c: CompatCase = {
    name: "x",
    prompt: "p",
    hooks: [],
    turns: [],
    deliberate: { why: "on purpose", allows: ["exit status"] },
  };
  it("is same, deliberate only for allowed differences, else differs with the rest", () => {
    expect(verdictLine(c, [])).toBe("same");
    expect(verdictLine(c, ["exit status 0 ≠ 1"])).toBe(
      "deliberate (on purpose): exit status 0 ≠ 1",
    );
    expect(verdictLine(c, ["exit status 0 ≠ 1", "file a missing"])).toBe("differs: file a missing");
    expect(verdictLine({ ...c, deliberate: undefined }, ["exit status 0 ≠ 1"])).toBe(
      "differs: exit status 0 ≠ 1",
    );
  });
});

describe("model view", () => {
  it("reads Anthropic tool results and reminders, and chat tool messages with hook blocks", () => {
    const body = {
      messages: [
        { role: "user", content: "go" },
        { role: "assistant", content: [{ type: "tool_use", id: "t", name: "Bash", input: {} }] },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "t", content: "hi", is_error: false },
            {
              type: "text",
              text: "<system-reminder>\nPostToolUse:Bash hook additional context: c\n</system-reminder>",
            },
          ],
        },
      ],
    };
    expect(modelItemsFromAnthropic(body)).toEqual([
      "tool_result: (output 0: hi)",
      "text: PostToolUse:Bash hook additional context: c",
    ]);
    const chat = [
      { role: "user", content: "go" },
      { role: "assistant", content: null },
      {
        role: "tool",
        content:
          'hi\n[exit code: 0]\n\n<hook-context event="PostToolUse">\nPostToolUse:shell hook additional context: c\n</hook-context>',
      },
    ];
    // Hook text inside a tool message is in the tool result's channel.
    expect(modelItemsFromChat(chat)).toEqual([
      "tool_result: (output 0: hi)",
      "tool_result: PostToolUse:shell hook additional context: c",
    ]);
    // A message of hook blocks alone is Keel's hook message; a system message is `system`.
    const apart = [
      { role: "assistant", content: null },
      { role: "tool", content: "hi\n[exit code: 0]" },
      {
        role: "user",
        content:
          '<hook-context event="PostToolUse">\nPostToolUse:shell hook additional context: c\n</hook-context>',
      },
      { role: "system", content: "s" },
    ];
    expect(modelItemsFromChat(apart)).toEqual([
      "tool_result: (output 0: hi)",
      "hook: PostToolUse:shell hook additional context: c",
      "system: s",
    ]);
    expect(
      modelItemsFromAnthropic({
        messages: [
          {
            role: "system",
            content: [{ type: "text", text: "PreToolUse:Bash hook additional context: p" }],
          },
        ],
      }),
    ).toEqual(["system: PreToolUse:Bash hook additional context: p"]);
  });

  it("compares the channel: Keel's hook message is Claude's system message, the tool result is not", () => {
    const view = (...items: string[]) => ({ modelView: [[], items] });
    const claude = observation(
      "/tmp/a",
      view("tool_result: (output 0: hi)", "system: PostToolUse:Bash hook additional context: c"),
    );
    const apart = observation(
      "/tmp/b",
      view("tool_result: (output 0: hi)", "hook: PostToolUse:shell hook additional context: c"),
    );
    const inside = observation(
      "/tmp/b",
      view(
        "tool_result: (output 0: hi)",
        "tool_result: PostToolUse:shell hook additional context: c",
      ),
    );
    expect(compareObservations(claude, apart, { channels: true })).toEqual([]);
    const moved = compareObservations(claude, inside, { channels: true });
    expect(moved).toHaveLength(1);
    expect(moved[0]).toMatch(/^model saw \(request 2\) in another channel /);
    // Without channels (tables that compare words), hook and system messages are user text.
    expect(compareObservations(claude, apart)).toEqual([]);
  });

  it("compares like with like: Claude's Stop feedback user message is Keel's hook message", () => {
    const preamble = "The text below is the output of a hook that the user set up.";
    const feedback = `${preamble}\nStop hook feedback:\nrun the tests`;
    // Claude Code 2.1.332: a user message holding only the hook's output is the hook channel.
    const items = modelItemsFromAnthropic({
      messages: [{ role: "user", content: [{ type: "text", text: feedback }] }],
    });
    expect(items).toEqual([`hook: ${feedback}`]);
    expect(modelItemsFromAnthropic({ messages: [{ role: "user", content: "finish" }] })).toEqual([
      "text: finish",
    ]);
    const error = 'Stop hook blocking error from command: "hook.sh": run the tests';
    const view = (...v: string[]) => ({ modelView: [[], v] });
    const claude = observation("/tmp/a", view(`hook: ${feedback}`, `system: ${error}`));
    const keel = observation("/tmp/b", view(`hook: ${feedback}`, `hook: ${error}`));
    expect(compareObservations(claude, keel, { channels: true })).toEqual([]);
    // Keel's hook message is not the peer's plain user text, nor the other way round.
    const asText = observation("/tmp/b", view(`text: ${feedback}`, `hook: ${error}`));
    expect(compareObservations(claude, asText, { channels: true })[0]).toMatch(
      /^model saw \(request 2\) in another channel /,
    );
  });

  it("puts each agent's wording of the same tool outcome in one form", () => {
    expect(canonicalToolOutput("claude", "Exit code 3\noops")).toBe(
      canonicalToolOutput("keel", "oops\n[exit code: 3]"),
    );
    expect(canonicalToolOutput("claude", "(Bash completed with no output)")).toBe(
      canonicalToolOutput("keel", "(no output)\n[exit code: 0]"),
    );
    expect(canonicalToolOutput("claude", "1\tone\n2\ttwo\n3\t")).toBe(
      canonicalToolOutput("keel", "1\tone\n2\ttwo"),
    );
    expect(canonicalToolOutput("claude", "PreToolUse:Bash hook error: x")).toBe(
      "PreToolUse:Bash hook error: x",
    );
  });

  it("finds hook paragraphs inside a longer reminder", () => {
    expect(hookParagraphs("Agents:\n- a\n\nUserPromptSubmit hook success: b\n\nSkills: c")).toEqual(
      ["UserPromptSubmit hook success: b"],
    );
  });
});

describe("recording hook", () => {
  it("records the payload and selected env in order and answers as scripted", () => {
    const c: CompatCase = {
      name: "r",
      prompt: "p",
      hooks: [{ id: "h1", event: "Stop", answer: "echo out; echo err >&2; exit 2" }],
      turns: [],
    };
    const dirs = makeCaseDirs(c, "test");
    const [cmd, id] = hookCommand(dirs, c.hooks[0]!).split(" ");
    const r = spawnSync(cmd!, [id!], {
      input: '{"hook_event_name":"Stop"}',
      env: { PATH: process.env.PATH, CLAUDECODE: "1", SECRET: "x" },
      encoding: "utf8",
    });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("out\n");
    expect(r.stderr).toBe("err\n");
    expect(readRecords(dirs)).toEqual([
      { id: "h1", payload: { hook_event_name: "Stop" }, env: { CLAUDECODE: "1" } },
    ]);
    const settings = claudeSettings(dirs, c.hooks) as { hooks: Record<string, unknown> };
    expect(settings.hooks.Stop).toEqual([
      { hooks: [{ type: "command", command: `${join(dirs.root, "hook.sh")} h1` }] },
    ]);
  });
});

describe("Anthropic simulator", () => {
  let sim: AnthropicSim | null = null;
  afterEach(async () => {
    await sim?.close();
    sim = null;
  });

  it("streams a scripted tool call as SSE, records the request, keeps side requests off the script", async () => {
    sim = await startAnthropicSim([
      { text: "run", toolCalls: [{ name: "Bash", input: { command: "echo hi" } }] },
    ]);
    const side = await fetch(`${sim.url}/v1/messages?beta=true`, {
      method: "POST",
      body: JSON.stringify({ model: "m", messages: [], stream: false }),
    });
    expect(((await side.json()) as { content: { text: string }[] }).content[0]?.text).toBe("ok");
    const res = await fetch(`${sim.url}/v1/messages?beta=true`, {
      method: "POST",
      body: JSON.stringify({ model: "m", messages: [], tools: [{ name: "Bash" }], stream: true }),
    });
    const text = await res.text();
    // Consecutive deltas collapsed: the argument JSON arrives in several pieces.
    const events = [...text.matchAll(/^event: (\w+)$/gm)]
      .map((m) => m[1])
      .filter((e, i, all) => e !== all[i - 1]);
    expect(events).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    const json = [...text.matchAll(/"partial_json":"((?:[^"\\]|\\.)*)"/g)]
      .map((m) => JSON.parse(`"${m[1]}"`) as string)
      .join("");
    expect(JSON.parse(json)).toEqual({ command: "echo hi" });
    expect(text).toContain('"stop_reason":"tool_use"');
    expect(sim.turns()).toHaveLength(1);
    expect(sim.records).toHaveLength(2);
    const missing = await fetch(`${sim.url}/v1/unknown`);
    expect(missing.status).toBe(404);
    expect(sim.unknownPaths).toEqual(["GET /v1/unknown"]);
  });
});
