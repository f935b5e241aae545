import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../../src/agent/events.js";
import { wordWrap } from "../../../src/cli/tui/format.js";
import { createPermissionBridge } from "../../../src/cli/tui/permission-bridge.js";
import {
  applyEvent,
  approvalWait,
  hitRatio,
  hookRunIsVisible,
  initialTranscript,
  liveAssistantText,
  type TranscriptState,
} from "../../../src/cli/tui/transcript.js";
import { hookRun } from "./helpers.js";

const run = (events: AgentEvent[], start: TranscriptState = initialTranscript()) =>
  events.reduce((s, e) => applyEvent(s, e, 1000), start);

describe("transcript", () => {
  it("moves a Markdown block to the static part once it is whole", () => {
    const s = run([
      { type: "text_delta", text: "one **bo" },
      { type: "text_delta", text: "ld**\ntwo\n\nthr" },
    ]);
    expect(s.done.map((e) => (e.kind === "assistant" ? [e.text, e.continued] : null))).toEqual([
      ["one **bold**\ntwo", false],
    ]);
    expect(s.streamingText).toBe("thr");
    expect(s.blockGap).toBe(true);
  });

  it("keeps an open code fence live, whole, until it closes", () => {
    let s = run([{ type: "text_delta", text: "```ts\nconst a = 1;\n" }]);
    expect(s.done).toEqual([]);
    expect(liveAssistantText(s)).toBe("```ts\nconst a = 1;\n```");
    s = run([{ type: "text_delta", text: "```\nafter\n" }], s);
    expect(s.done.map((e) => (e.kind === "assistant" ? e.text : null))).toEqual([
      "```ts\nconst a = 1;\n```",
    ]);
    expect(liveAssistantText(s)).toBe("after");
  });

  it("cuts a long code block into chunks that each render as code", () => {
    const code = Array.from({ length: 10 }, (_, i) => `line${i}`).join("\n");
    const s = run([{ type: "text_delta", text: `\`\`\`py\n${code}\n` }]);
    const texts = s.done.map((e) => (e.kind === "assistant" ? e.text : ""));
    expect(texts.length).toBeGreaterThan(1);
    for (const t of texts) expect(t).toMatch(/^```py\n[\s\S]*\n```$/);
    expect(liveAssistantText(s).startsWith("```py\n")).toBe(true);
  });

  it("shows a running command's output in its card and names a running hook", () => {
    const hook = {
      hookId: "h1",
      event: "PreToolUse" as const,
      command: "./slow-check.sh",
      source: "/p/.keel/settings.json",
      startedAt: 500,
    };
    let s = run([
      { type: "tool_call", id: "c1", name: "shell", input: { command: "make" } },
      { type: "hook_start", hook },
    ]);
    expect(s.phase).toEqual({
      kind: "busy",
      label: "running PreToolUse hook ./slow-check.sh",
      since: 500,
    });
    s = run([{ type: "hook_run", run: hookRun({ hookId: "h1", event: "PreToolUse" }) }], s);
    expect(s.runningHooks).toEqual([]);
    expect(s.phase.kind === "busy" && s.phase.label).toBe("running shell");
    s = run(
      [
        { type: "tool_output", id: "c1", text: "compiling a\n" },
        { type: "tool_output", id: "c1", text: "compiling b\n" },
      ],
      s,
    );
    expect(s.tools[0]?.output).toBe("compiling a\ncompiling b\n");
  });

  it("names the hook still running once a faster one of the same firing ends", () => {
    const fast = {
      hookId: "h1",
      event: "PreToolUse" as const,
      command: "./guard.sh",
      source: "/p/s.json",
      startedAt: 500,
    };
    const slow = { ...fast, hookId: "h2", command: "./slow.sh", startedAt: 501 };
    let s = run([
      { type: "tool_call", id: "c1", name: "shell", input: { command: "make" } },
      { type: "hook_start", hook: fast },
      { type: "hook_start", hook: slow },
    ]);
    expect(s.phase.kind === "busy" && s.phase.label).toBe("running PreToolUse hook ./guard.sh");
    s = run([{ type: "hook_end", hook: fast }], s);
    expect(s.phase.kind === "busy" && s.phase.label).toBe("running PreToolUse hook ./slow.sh");
    s = run([{ type: "hook_end", hook: slow }], s);
    expect(s.runningHooks).toEqual([]);
    expect(s.phase.kind === "busy" && s.phase.label).toBe("running shell");
  });

  it("keeps a paragraph streamed without line breaks to a few live rows", () => {
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`);
    let s = initialTranscript();
    for (const w of words) {
      s = applyEvent(s, { type: "text_delta", text: `${w} ` }, 0, {
        textWidth: 20,
        maxLiveRows: 2,
      });
      expect(wordWrap(s.streamingText, 20).split("\n").length).toBeLessThanOrEqual(2);
    }
    const shown = [...s.done.map((e) => (e.kind === "assistant" ? e.text : "")), s.streamingText];
    expect(shown.join(" ").split(/\s+/).filter(Boolean)).toEqual(words);
    for (const e of s.done) {
      expect(e.kind === "assistant" && wordWrap(e.text, 20).split("\n").length).toBe(2);
    }
  });

  it("collapses reasoning into one entry when the answer starts", () => {
    const s = run([
      { type: "reasoning_delta", text: "hmm " },
      { type: "reasoning_delta", text: "ok" },
      { type: "text_delta", text: "x" },
    ]);
    expect(s.done).toMatchObject([{ kind: "reasoning", text: "hmm ok", expanded: false }]);
    expect(s.lastReasoning).toBe("hmm ok");
  });

  it.each([
    [hookRun({ outcome: "pass" }), false],
    [hookRun({ outcome: "pass", stdout: "context" }), true],
    [hookRun({ outcome: "block" }), true],
    [hookRun({ outcome: "warn" }), true],
    [hookRun({ outcome: "error" }), true],
    [hookRun({ outcome: "timeout" }), true],
    [hookRun({ outcome: "cancelled" }), true],
  ])("hook run %# visible: %s", (r, visible) => {
    expect(hookRunIsVisible(r)).toBe(visible);
  });

  it("marks cards still running at an aborted turn end as interrupted", () => {
    const s = run([
      { type: "tool_call", id: "a", name: "shell", input: { command: "sleep 9" } },
      { type: "turn_end", turn: 1, text: "", stopReason: "aborted" },
    ]);
    expect(s.tools).toEqual([]);
    expect(s.done).toMatchObject([
      { kind: "tool", card: { status: "error", content: "interrupted" } },
      { kind: "notice", text: "interrupted" },
    ]);
    expect(s.phase.kind).toBe("idle");
  });

  it("keeps the hook rows and notices of a running call inside its card, not above it", () => {
    const s = run([
      { type: "tool_call", id: "a", name: "shell", input: { command: "make" } },
      { type: "hook_run", run: hookRun({ event: "PreToolUse", stdout: "checked" }) },
      { type: "hook_run", run: hookRun({ event: "PostToolUse", outcome: "warn", stderr: "lint" }) },
      { type: "notice", level: "info", text: "from a hook" },
      {
        type: "tool_result",
        id: "a",
        name: "shell",
        input: { command: "make" },
        status: "ok",
        content: "built",
        durationMs: 5,
      },
      { type: "hook_run", run: hookRun({ event: "Stop", outcome: "warn", stderr: "late" }) },
    ]);
    expect(s.done.map((e) => e.kind)).toEqual(["tool", "hook"]);
    const card = s.done[0]?.kind === "tool" ? s.done[0].card : null;
    expect(card?.attached?.map((a) => (a.kind === "hook" ? a.run.event : a.text))).toEqual([
      "PreToolUse",
      "PostToolUse",
      "from a hook",
    ]);
  });

  it("puts a Stop hook's row after the answer line still streaming", () => {
    const s = run([
      { type: "text_delta", text: "All done" },
      { type: "hook_run", run: hookRun({ event: "Stop", outcome: "block", message: "run tests" }) },
    ]);
    expect(s.done.map((e) => e.kind)).toEqual(["assistant", "hook"]);
    expect(s.streamingText).toBe("");
  });

  it("flushes streamed text before the compaction notice", () => {
    const s = run([
      { type: "text_delta", text: "partial" },
      { type: "compacted", beforeMessages: 9, afterMessages: 1 },
    ]);
    expect(s.streamingText).toBe("");
    expect(s.done.map((e) => e.kind)).toEqual(["assistant", "notice"]);
  });

  it("keeps every reasoning block of the turn for /thinking", () => {
    const s = run([
      { type: "turn_start", turn: 1, prompt: "p" },
      { type: "reasoning_delta", text: "first" },
      { type: "tool_call", id: "a", name: "shell", input: { command: "ls" } },
      { type: "reasoning_delta", text: "second" },
      { type: "text_delta", text: "done" },
    ]);
    expect(s.lastReasoning).toBe("first\n\nsecond");
    expect(run([{ type: "turn_start", turn: 2, prompt: "q" }], s).lastReasoning).toBe("");
  });

  it("accumulates cache ratios per turn and per session", () => {
    const usage = (hit: number, miss: number, turnCost: number, total: number): AgentEvent => ({
      type: "usage",
      usage: {
        promptTokens: hit + miss,
        cacheHitTokens: hit,
        cacheMissTokens: miss,
        completionTokens: 1,
        reasoningTokens: 0,
      },
      costUsd: total,
      turnCostUsd: turnCost,
    });
    let s = run([usage(0, 100, 0.01, 0.01)]);
    s = run(
      [
        { type: "turn_start", turn: 2, prompt: "p" },
        usage(100, 0, 0.001, 0.011),
        usage(100, 0, 0.001, 0.012),
      ],
      s,
    );
    expect(hitRatio(s.turn)).toBe(1);
    expect(hitRatio(s.session)).toBeCloseTo(2 / 3);
    expect(s.turn.costUsd).toBeCloseTo(0.002);
    expect(s.session.costUsd).toBeCloseTo(0.012);
    expect(hitRatio(initialTranscript().turn)).toBeNull();
  });
});

describe("permission bridge", () => {
  const req = { toolName: "shell", input: {}, summary: "ls", reason: "", always: null };
  it("denies when no UI listens", async () => {
    const b = createPermissionBridge();
    await expect(b.ask(req, { signal: new AbortController().signal })).resolves.toBe("deny");
  });

  it("delivers the UI's answer and clears the prompt", async () => {
    const b = createPermissionBridge();
    const seen: Array<string | null> = [];
    b.subscribe((p) => {
      seen.push(p ? p.request.summary : null);
      p?.answer("allow_once");
    });
    await expect(b.ask(req, { signal: new AbortController().signal })).resolves.toBe("allow_once");
    expect(seen).toEqual([null, "ls", null]);
  });

  it("denies when the turn is aborted while asking", async () => {
    const b = createPermissionBridge();
    b.subscribe(() => {});
    const ac = new AbortController();
    const answer = b.ask(req, { signal: ac.signal });
    ac.abort();
    await expect(answer).resolves.toBe("deny");
  });
});

describe("a table streamed in a narrow terminal", () => {
  it("keeps every row a table row when its start becomes static (no raw '| a | b |' row)", async () => {
    const { renderMarkdown } = await import("../../../src/cli/tui/markdown.js");
    const answer = [
      "| name | description | default |",
      "|---|---|---|",
      "| timeout | how long to wait before giving up on the request entirely | 60 |",
      "| retries | number of retries | 5 |",
      "",
      "## Steps",
      "",
    ].join("\n");
    let s = initialTranscript();
    // Streamed in small pieces at 60 columns (58 for the text), as the simulator sends it.
    for (let i = 0; i < answer.length; i += 7) {
      s = applyEvent(s, { type: "text_delta", text: answer.slice(i, i + 7) }, 0, {
        textWidth: 58,
      });
    }
    s = applyEvent(s, { type: "turn_end", turn: 1, text: answer, stopReason: "end" }, 0, {
      textWidth: 58,
    });
    const shown = s.done
      .flatMap((e) =>
        e.kind === "assistant"
          ? [
              renderMarkdown(
                e.text,
                58,
                e.tableRowsShown === undefined ? {} : { tableRowsShown: e.tableRowsShown },
              ),
            ]
          : [],
      )
      .join("\n")
      .replace(/\x1b\[[0-9;]*m/g, "");
    expect(shown).not.toMatch(/^\|/m);
    expect(shown).toMatch(/^retries │ number of retries +│ 5$/m);
    // The header is shown once.
    expect(shown.match(/^name /gm)).toHaveLength(1);
  });
});

describe("a tool's duration and the user's approval", () => {
  const call: AgentEvent = { type: "tool_call", id: "c1", name: "bash", input: { command: "ls" } };
  const result = (durationMs: number): AgentEvent => ({
    type: "tool_result",
    id: "c1",
    name: "bash",
    input: { command: "ls" },
    status: "ok",
    content: "a\nb",
    durationMs,
  });

  it("leaves the time the question waited out of the card's duration", () => {
    // Called at 0, asked at 100, answered at 30 100, result at 30 300: the agent says 30 300 ms.
    let s = applyEvent(initialTranscript(), call, 0);
    s = approvalWait(s, true, 100);
    s = approvalWait(s, false, 30_100);
    // Running after the answer, its elapsed time is the tool's: 100 ms before, 200 after.
    expect(30_300 - (s.tools[0]?.startedAt ?? 0)).toBe(300);
    s = applyEvent(s, result(30_300), 30_300);
    const card = s.done.at(-1);
    expect(card?.kind === "tool" ? card.card.durationMs : null).toBe(300);
  });

  it("counts a question answered by the result itself (denied, interrupted)", () => {
    let s = applyEvent(initialTranscript(), call, 0);
    s = approvalWait(s, true, 50);
    s = applyEvent(s, result(5_050), 5_050);
    const card = s.done.at(-1);
    expect(card?.kind === "tool" ? card.card.durationMs : null).toBe(50);
  });

  it("a question with no running call changes nothing", () => {
    const s = initialTranscript();
    expect(approvalWait(s, true, 10)).toBe(s);
    expect(approvalWait(s, false, 20)).toBe(s);
  });
});
