/**
 * Several `task` calls in one reply run at once (src/agent/parallel-tasks.ts): their sub-agents
 * overlap, their results reach the log in call order, and their permission questions still come
 * one at a time. The overlap is shown by hook logs, not by timing: each sub-agent's PreToolUse
 * hook waits (bounded) until the other sub-agent has started too — one after the other, the
 * first waits in vain and the log shows it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import {
  agentFor,
  collect,
  commandHook,
  hookScript,
  keel,
  type World,
  worldPerTest,
  writeSettings,
} from "./harness.js";

const newWorld = worldPerTest();
const main = { lastUserContains: "both files" };
const alpha = { lastUserContains: "ALPHA" };
const beta = { lastUserContains: "BETA" };

/** The main reply's two task calls, then each sub-agent's read and answer, then the summary. */
function twoTasks(afterRead: (letter: "a" | "b") => ReturnType<typeof reply>[] = () => []) {
  return script(
    reply()
      .when(main)
      .tool("task", { description: "read a", prompt: "ALPHA: report what a.txt says" })
      .tool("task", { description: "read b", prompt: "BETA: report what b.txt says" }),
    reply().when(alpha).tool("read_file", { path: "a.txt" }),
    ...afterRead("a"),
    reply().when(alpha).text("ALPHA-DONE a says one"),
    reply().when(beta).tool("read_file", { path: "b.txt" }),
    ...afterRead("b"),
    reply().when(beta).text("BETA-DONE b says two"),
    reply().when(main).text("a: one, b: two"),
  );
}

/** Lines of a marker log. */
function lines(path: string): string[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "");
}

/**
 * A PreToolUse hook for the sub-agents' reads: logs `start A|B`, waits (at most 10 s) until both
 * have started, and A then also waits until B's sub-agent has stopped, so B ends first; then
 * logs `end A|B`. A SubagentStop hook logs `stop A|B`.
 */
function markerHooks(w: World): string {
  const log = join(w.root, "markers.log");
  writeFileSync(log, "");
  const waitFor = (test: string) =>
    `i=0; while ! ${test} && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done`;
  const pre = hookScript(
    w,
    "pre.sh",
    [
      "input=$(cat)",
      `case "$input" in *'"agent_id"'*) ;; *) exit 0 ;; esac`,
      `case "$input" in *a.txt*) who=A ;; *b.txt*) who=B ;; *) exit 0 ;; esac`,
      `echo "start $who" >> "${log}"`,
      waitFor(`[ "$(grep -c '^start' "${log}")" -ge 2 ]`),
      `if [ "$who" = A ]; then ${waitFor(`grep -q '^stop B' "${log}"`)}; fi`,
      `echo "end $who" >> "${log}"`,
    ].join("\n"),
  );
  const stop = hookScript(
    w,
    "stop.sh",
    [
      "input=$(cat)",
      `case "$input" in *ALPHA-DONE*) echo "stop A" >> "${log}" ;; *BETA-DONE*) echo "stop B" >> "${log}" ;; esac`,
    ].join("\n"),
  );
  writeSettings(w, { PreToolUse: [commandHook(pre)], SubagentStop: [commandHook(stop)] });
  return log;
}

describe("several task calls in one reply", () => {
  it("run at once through `keel run`; results reach the log in call order", async () => {
    const w = await newWorld(twoTasks());
    writeFileSync(join(w.project, "a.txt"), "one\n");
    writeFileSync(join(w.project, "b.txt"), "two\n");
    const log = markerHooks(w);

    const r = await keel(w, ["run", "read both files", "--output-format", "json"]);
    expect(r.code).toBe(0);

    // Both sub-agents were inside their reads at once, and B finished while A still waited.
    const markers = lines(log);
    expect(markers.slice(0, 2).sort()).toEqual(["start A", "start B"]);
    expect(markers.slice(2)).toEqual(["end B", "stop B", "end A", "stop A"]);

    const out = JSON.parse(r.stdout);
    expect(out.result).toBe("a: one, b: two");
    expect(
      out.toolCalls.map((c: { input: { description: string } }) => c.input.description),
    ).toEqual(["read a", "read b"]);
    // The main agent's second request: the two results right after the calls, in call order,
    // although B's finished first.
    const last = w.sim.requests.at(-1)?.messages ?? [];
    const calls = last.at(-3);
    const ids = (calls?.tool_calls ?? []).map((c) => c.id);
    expect(ids).toHaveLength(2);
    expect(last.slice(-2).map((m) => [m.role, m.tool_call_id, m.content])).toEqual([
      ["tool", ids[0], "ALPHA-DONE a says one"],
      ["tool", ids[1], "BETA-DONE b says two"],
    ]);
  }, 60_000);

  it("their permission questions come one at a time; events keep each call's id", async () => {
    const w = await newWorld(twoTasks());
    writeFileSync(join(w.project, "a.txt"), "one\n");
    writeFileSync(join(w.project, "b.txt"), "two\n");
    // Every sub-agent read is put to the user.
    const ask = hookScript(
      w,
      "ask.sh",
      `case "$(cat)" in *'"agent_id"'*) echo '{"decision":"ask"}' ;; esac`,
    );
    writeSettings(w, { PreToolUse: [commandHook(ask)] });
    let open = 0;
    let mostOpen = 0;
    const asked: string[] = [];
    let another: (() => void) | null = null;
    const agent = await agentFor(w, {
      askPermission: async (req) => {
        asked.push(req.summary);
        open += 1;
        mostOpen = Math.max(mostOpen, open);
        another?.();
        // The first question stays open until a second one comes (or 3 s pass): asked at
        // once, the two would overlap here.
        if (asked.length === 1) {
          await new Promise<void>((resolve) => {
            another = resolve;
            setTimeout(resolve, 3000);
          });
        }
        open -= 1;
        return "allow_once";
      },
    });
    const events = await collect(agent.runTurn("read both files"));
    expect(asked.sort()).toEqual(["read_file a.txt", "read_file b.txt"]);
    expect(mostOpen).toBe(1);
    expect(events.at(-1)).toMatchObject({
      type: "turn_end",
      stopReason: "end",
      text: "a: one, b: two",
    });

    // Both task calls started before either ended; each sub-agent's events name its own call.
    const taskCalls = events.filter((e) => e.type === "tool_call" && e.name === "task");
    const ids = taskCalls.map((e) => (e.type === "tool_call" ? e.id : ""));
    const firstResult = events.findIndex((e) => e.type === "tool_result" && e.name === "task");
    expect(ids).toHaveLength(2);
    expect(events.indexOf(taskCalls[1] as (typeof events)[number])).toBeLessThan(firstResult);
    const reads = events.flatMap((e) =>
      e.type === "subagent" && e.event.type === "tool_result"
        ? [[e.toolCallId, e.event.input.path]]
        : [],
    );
    expect(reads.sort()).toEqual(
      [
        [ids[0], "a.txt"],
        [ids[1], "b.txt"],
      ].sort(),
    );
  }, 60_000);

  it("a `continue: false` from one stops the calls after the group; the group runs to its end", async () => {
    const w = await newWorld(
      script(
        reply()
          .when(main)
          .tool("task", { description: "read a", prompt: "ALPHA: report what a.txt says" })
          .tool("task", { description: "read b", prompt: "BETA: report what b.txt says" })
          .tool("list_dir", { path: "." }),
        reply().when(alpha).text("ALPHA-DONE"),
        reply().when(beta).text("BETA-DONE"),
        reply().text("noted"),
      ),
    );
    const stop = hookScript(
      w,
      "stop-after-a.sh",
      `case "$(cat)" in *'"agent_id"'*) ;; *'"read a"'*) echo '{"continue":false,"stopReason":"enough for now"}' ;; esac`,
    );
    writeSettings(w, { PostToolUse: [commandHook(stop)] });
    const agent = await agentFor(w);
    const events = await collect(agent.runTurn("read both files"));
    expect(events.at(-1)).toMatchObject({ type: "turn_end", stopReason: "hook_stop" });
    // list_dir never ran; both sub-agents did.
    expect(events.some((e) => e.type === "tool_call" && e.name === "list_dir")).toBe(false);
    await collect(agent.runTurn("go on"));
    const sent = w.sim.requests.at(-1)?.messages ?? [];
    const tools = sent.filter((m) => m.role === "tool").map((m) => m.content);
    expect(tools).toEqual(["ALPHA-DONE", "BETA-DONE", "Not run: enough for now"]);
  }, 60_000);
});
