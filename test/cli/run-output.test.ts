/**
 * `keel run`'s event handling without a model: what the tally and the printers keep while a
 * tool floods them with output, stream-json's per-call output cap, and the stderr lines of
 * failed calls.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import type { AgentEvent, ToolCallStatus } from "../../src/agent/events.js";
import type { AgentStats } from "../../src/agent/types.js";
import {
  createRunPrinter,
  createRunTally,
  runSummary,
  STREAM_TOOL_OUTPUT_BYTES,
} from "../../src/cli/commands/run-output.js";
import { hookRun } from "./tui/helpers.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const stats: AgentStats = {
  sessionId: "s-1",
  requests: 1,
  usage: {
    promptTokens: 10,
    cacheHitTokens: 4,
    cacheMissTokens: 6,
    completionTokens: 2,
    reasoningTokens: 0,
  },
  costUsd: 0.01,
  costWithoutCacheUsd: 0.02,
  cacheHitRatio: 0.4,
  compactions: 0,
  prefixFingerprint: "x",
  messages: 2,
};

const call = (id: string): AgentEvent => ({
  type: "tool_call",
  id,
  name: "shell",
  input: { command: "yes" },
});
const result = (
  id: string,
  content = "y\n[exit code: 0]",
  status: ToolCallStatus = "ok",
): AgentEvent => ({
  type: "tool_result",
  id,
  name: "shell",
  input: { command: "yes" },
  status,
  content,
  durationMs: 5,
});
const turnEnd = (stopReason: "end" | "max_turns" = "end"): AgentEvent => ({
  type: "turn_end",
  turn: 1,
  text: "done",
  stopReason,
});

/** A printer whose output is counted, not kept. */
function countingPrinter(format: "text" | "json" | "stream-json") {
  let stdoutBytes = 0;
  const printer = createRunPrinter(format, {
    stdout: (t) => {
      stdoutBytes += Buffer.byteLength(t);
    },
    stderr: () => {},
  });
  return { printer, stdoutBytes: () => stdoutBytes };
}

describe("keel run keeps no tool output", () => {
  it.each(["text", "json", "stream-json"] as const)(
    "%s: every tool_output and tool_result event can be collected while the run goes on",
    async (format) => {
      const tally = createRunTally();
      const { printer } = countingPrinter(format);
      const handle = (ev: AgentEvent) => {
        tally.add(ev);
        printer.event(ev);
      };
      // Weak references only: the run's handling must be all that could keep these alive.
      const refs: WeakRef<AgentEvent>[] = [];
      const feed = () => {
        for (let c = 0; c < 5; c++) {
          const id = `call_${c}`;
          handle(call(id));
          for (let i = 0; i < 200; i++) {
            const ev: AgentEvent = { type: "tool_output", id, text: `${i}\n`.repeat(500) };
            refs.push(new WeakRef(ev));
            handle(ev);
          }
          const done = result(id, `${"y\n".repeat(5000)}[exit code: 0]`);
          refs.push(new WeakRef(done));
          handle(done);
        }
      };
      feed();
      // WeakRef targets stay alive until the job that made them ends.
      await new Promise((r) => setTimeout(r, 0));
      gc();
      const alive = refs.filter((r) => r.deref() !== undefined).length;
      expect(alive).toBe(0);
      handle(turnEnd());
      const outcome = tally.outcome();
      expect(outcome.toolCalls).toHaveLength(5);
      expect(outcome.toolCalls[0]).toEqual({
        name: "shell",
        input: { command: "yes" },
        status: "ok",
      });
    },
  );
});

describe("stream-json caps each call's streamed output", () => {
  const lines = (format: "stream-json", events: AgentEvent[]) => {
    const out: string[] = [];
    const printer = createRunPrinter(format, { stdout: (t) => out.push(t), stderr: () => {} });
    printer.init({
      sessionId: "s-1",
      resumed: false,
      model: "m",
      cwd: "/p",
      keelVersion: "0",
    });
    for (const ev of events) printer.event(ev);
    printer.finish(runSummary(createRunTally().outcome(), stats, null));
    return out
      .join("")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
  };

  it("writes the first 64 KiB of a call's output, then one event saying how much was left out", () => {
    const chunk = "x".repeat(10_000);
    const events: AgentEvent[] = [call("a")];
    for (let i = 0; i < 100; i++) events.push({ type: "tool_output", id: "a", text: chunk });
    events.push(result("a"));
    const out = lines("stream-json", events);
    expect(out[0]).toMatchObject({ type: "system", subtype: "init", sessionId: "s-1" });
    const streamed = out.filter((e) => e.type === "tool_output");
    const sent = streamed.reduce((n, e) => n + Buffer.byteLength(e.text), 0);
    expect(sent).toBe(STREAM_TOOL_OUTPUT_BYTES);
    expect(streamed).toHaveLength(7);
    const omitted = out.findIndex((e) => e.type === "tool_output_omitted");
    expect(out[omitted]).toEqual({
      type: "tool_output_omitted",
      id: "a",
      omittedBytes: 1_000_000 - STREAM_TOOL_OUTPUT_BYTES,
      streamedBytes: STREAM_TOOL_OUTPUT_BYTES,
    });
    expect(out[omitted + 1]).toMatchObject({ type: "tool_result", id: "a" });
    expect(out.at(-1)).toMatchObject({ type: "result", isError: false, stopReason: "error" });
  });

  it("never splits a character, gives each call its own budget, and caps a sub-agent's calls", () => {
    // 2-byte "é"s up to 1 byte short of the cap, "a", then a 3-byte "€" across it.
    const big = `${"é".repeat(STREAM_TOOL_OUTPUT_BYTES / 2 - 1)}a€`;
    const inner = (ev: AgentEvent): AgentEvent => ({
      type: "subagent",
      toolCallId: "t",
      agentId: "ag",
      agentType: "explore",
      description: "look",
      event: ev,
    });
    const out = lines("stream-json", [
      { type: "tool_output", id: "a", text: big },
      // 1 byte would still fit, but after a cut the stream stops: it never skips a part.
      { type: "tool_output", id: "a", text: "z" },
      { type: "tool_output", id: "b", text: "small" },
      result("a"),
      result("b"),
      inner({ type: "tool_output", id: "s", text: "z".repeat(STREAM_TOOL_OUTPUT_BYTES + 5) }),
      inner(result("s")),
    ]);
    expect(out.filter((e) => e.type === "tool_output" && e.id === "a")).toHaveLength(1);
    const first = out.find((e) => e.type === "tool_output" && e.id === "a");
    expect(first.text.endsWith("éa")).toBe(true);
    expect(Buffer.byteLength(first.text)).toBe(STREAM_TOOL_OUTPUT_BYTES - 1);
    expect(out.find((e) => e.type === "tool_output_omitted" && e.id === "a")).toMatchObject({
      omittedBytes: 4,
      streamedBytes: STREAM_TOOL_OUTPUT_BYTES - 1,
    });
    expect(out.find((e) => e.type === "tool_output" && e.id === "b")?.text).toBe("small");
    expect(out.some((e) => e.type === "tool_output_omitted" && e.id === "b")).toBe(false);
    const sub = out.find((e) => e.type === "subagent" && e.event.type === "tool_output");
    expect(sub.event.text).toHaveLength(STREAM_TOOL_OUTPUT_BYTES);
    expect(out.find((e) => e.type === "tool_output_omitted" && e.id === "s")).toMatchObject({
      omittedBytes: 5,
    });
  });
});

describe("the json result says whether the run failed", () => {
  it("max_turns: isError, the stop reason and the message", () => {
    const tally = createRunTally();
    tally.add({ type: "notice", level: "warn", text: "Stopped after 2 model requests." });
    tally.add(turnEnd("max_turns"));
    const outcome = tally.outcome();
    const s = runSummary(outcome, stats, outcome.failure);
    expect(s.json).toMatchObject({
      result: "done",
      isError: true,
      stopReason: "max_turns",
      error: "Stopped after 2 model requests.",
    });
  });

  it("a turn that never ran is an error with the reason", () => {
    const tally = createRunTally();
    tally.add({ type: "error", message: "the session has ended" });
    const outcome = tally.outcome();
    expect(outcome).toMatchObject({ stopReason: "error", failure: "the session has ended" });
  });
});

describe("json format: what a script must hear", () => {
  const hookRunEvent = (outcome: "pass" | "error"): AgentEvent => ({
    type: "hook_run",
    run: hookRun({
      command: "./check.sh",
      outcome,
      exitCode: outcome === "pass" ? 0 : 1,
      stderr: outcome === "pass" ? "" : "check.sh: not found\n",
    }),
  });

  it("notices and failed hooks go to stderr and, once each, into warnings; passes and info stay out of warnings", () => {
    let err = "";
    let out = "";
    const printer = createRunPrinter("json", {
      stdout: (t) => {
        out += t;
      },
      stderr: (t) => {
        err += t;
      },
    });
    const tally = createRunTally();
    const events: AgentEvent[] = [
      { type: "notice", level: "warn", text: "1 project hook is not trusted" },
      { type: "notice", level: "info", text: "a hook says hello" },
      hookRunEvent("pass"),
      hookRunEvent("error"),
      hookRunEvent("error"),
      turnEnd(),
    ];
    for (const ev of events) {
      tally.add(ev);
      printer.event(ev);
    }
    const outcome = tally.outcome();
    printer.finish(runSummary(outcome, stats, outcome.failure));
    const failed = "PreToolUse hook ./check.sh error: check.sh: not found";
    expect(err).toBe(
      `keel: 1 project hook is not trusted\nkeel: a hook says hello\nkeel: ${failed}\nkeel: ${failed}\n`,
    );
    expect(JSON.parse(out).warnings).toEqual(["1 project hook is not trusted", failed]);
  });
});

describe("text format: a failed call's stderr line", () => {
  const stderrOf = (ev: AgentEvent) => {
    let err = "";
    const printer = createRunPrinter("text", {
      stdout: () => {},
      stderr: (t) => {
        err += t;
      },
    });
    printer.event(ev);
    return err;
  };

  it("a long refusal keeps its end, which says how to allow the call", () => {
    const refusal = `Permission denied: shell ${"x ".repeat(1500)} needs the user's approval (not read-only), and this session is headless. The tool did not run. (The user can re-run with --yes, switch the permission mode, or allow it with a PermissionRequest hook.)`;
    const line = stderrOf(result("a", refusal, "blocked"));
    expect(line).toMatch(/^keel: shell blocked: Permission denied: shell x x/);
    expect(line).toContain("…");
    expect(line).toMatch(/or allow it with a PermissionRequest hook\.\)\n$/);
  });

  it("a shell call that failed says how it ended before its output", () => {
    const timedOut =
      "line1\nline2\n[timed out after 1000 ms; the command and its children were killed]";
    expect(stderrOf(result("a", timedOut, "error"))).toBe(
      "keel: shell error: timed out after 1000 ms; the command and its children were killed (output: line1)\n",
    );
    expect(stderrOf(result("a", "(no output)\n[exit code: 3]", "error"))).toBe(
      "keel: shell error: exit code: 3\n",
    );
    expect(stderrOf(result("a", "no such file: a.txt", "error"))).toBe(
      "keel: shell error: no such file: a.txt\n",
    );
  });
});
