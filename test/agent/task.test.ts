/** The `task` tool: a sub-agent on the one turn loop, its hooks, its cost, its policy. */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
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
const sub = { lastUserContains: "FIND" };

function toolNames(toolsText: string | null | undefined): string[] {
  return (JSON.parse(toolsText ?? "[]") as { function: { name: string } }[]).map(
    (t) => t.function.name,
  );
}

function assertPrefixGrowth(reqs: World["sim"]["requests"]): void {
  for (let i = 1; i < reqs.length; i++) {
    const prev = reqs[i - 1];
    const next = reqs[i];
    if (!prev || !next) throw new Error("missing request");
    expect(next.messageTexts.slice(0, prev.messageTexts.length)).toEqual(prev.messageTexts);
    expect(next.toolsText).toBe(prev.toolsText);
  }
}

describe("the task tool", () => {
  it("runs a read-only sub-agent whose final text is the result; hooks fire inside with agent_id; cost is the session's", async () => {
    const w = await newWorld(
      script(
        reply().tool("task", {
          description: "find the config",
          prompt: "FIND where the port is set",
        }),
        reply().when(sub).tool("read_file", { path: "notes.txt" }),
        reply().when(sub).tool("write_file", { path: "x.txt", content: "no" }),
        reply().when(sub).text("The port is 8080, set in notes.txt line 1."),
        reply().text("Port: 8080."),
      ),
    );
    writeFileSync(join(w.project, "notes.txt"), "port=8080\n");
    const log = join(w.root, "events.log");
    const logger = hookScript(w, "log.sh", `cat >> "${log}"\necho >> "${log}"`);
    writeSettings(w, {
      PreToolUse: [commandHook(logger)],
      PostToolUse: [commandHook(logger)],
      SubagentStart: [commandHook(logger)],
      SubagentStop: [commandHook(logger)],
      Stop: [commandHook(logger)],
    });
    const r = await keel(w, ["run", "what port?", "--output-format", "json"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.result).toBe("Port: 8080.");
    expect(out.toolCalls).toEqual([
      {
        name: "task",
        input: { description: "find the config", prompt: "FIND where the port is set" },
        status: "ok",
      },
    ]);

    const reqs = w.sim.requests;
    const subReqs = reqs.filter(
      (q) =>
        q.messages.some((m) => m.content?.includes("FIND")) &&
        !q.messages.some((m) => m.content === "what port?"),
    );
    const mainReqs = reqs.filter((q) => !subReqs.includes(q));
    expect(subReqs).toHaveLength(3);
    expect(mainReqs).toHaveLength(2);
    // Its own prefix: another system prompt, read-only tools, no task tool.
    expect(toolNames(subReqs[0]?.toolsText)).toEqual([
      "glob",
      "grep",
      "kill_shell",
      "list_dir",
      "read_file",
      "shell_output",
    ]);
    expect(toolNames(mainReqs[0]?.toolsText)).toContain("task");
    expect(subReqs[0]?.messageTexts[0]).not.toBe(mainReqs[0]?.messageTexts[0]);
    expect(subReqs[0]?.messages[1]).toEqual({
      role: "user",
      content: "FIND where the port is set",
    });
    expect(subReqs[2]?.messages.at(-1)?.content).toMatch(/Unknown tool "write_file"/);
    // Each conversation keeps the byte-prefix invariant.
    assertPrefixGrowth(subReqs);
    assertPrefixGrowth(mainReqs);
    // The final text is the task's tool result in the main conversation.
    const result = mainReqs[1]?.messages.at(-1);
    expect(result).toMatchObject({
      role: "tool",
      content: "The port is 8080, set in notes.txt line 1.",
    });
    // The sub-agent's requests are in the session's cost and usage.
    expect(out.usage.promptTokens).toBe(reqs.reduce((n, q) => n + q.promptTokens, 0));
    expect(out.usage.completionTokens).toBe(reqs.reduce((n, q) => n + q.completionTokens, 0));

    const payloads = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const seq = payloads.map(
      (p) => `${p.hook_event_name}:${p.tool_name ?? ""}:${p.agent_type ?? ""}`,
    );
    expect(seq).toEqual([
      "PreToolUse:task:",
      "SubagentStart::task",
      "PreToolUse:read_file:task",
      "PostToolUse:read_file:task",
      "SubagentStop::task",
      "PostToolUse:task:",
      "Stop::",
    ]);
    // keel run's json counts the hooks that ran inside the sub-agent too.
    expect(out.hookRuns.map((h: { event: string }) => h.event)).toEqual(
      payloads.map((p) => p.hook_event_name),
    );
    const inner = payloads.filter((p) => p.agent_type === "task");
    const ids = new Set(inner.map((p) => p.agent_id));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(/^agent_[0-9a-f]{16}$/);
    expect(payloads.find((p) => p.hook_event_name === "SubagentStop")?.last_assistant_message).toBe(
      "The port is 8080, set in notes.txt line 1.",
    );
  });

  it("a PreToolUse hook blocks a sub-agent's call; settings widen its tools and bound its turns", async () => {
    const w = await newWorld(
      script(
        reply().tool("task", { description: "d", prompt: "FIND things" }),
        reply().when(sub).tool("shell", { command: "echo hi" }),
        reply().when(sub).tool("list_dir", { path: "." }),
        reply().when(sub).tool("glob", { pattern: "*" }),
        reply().text("gave up"),
      ),
    );
    const block = hookScript(
      w,
      "block.sh",
      `cat >/dev/null\necho "no shell in sub-agents" >&2\nexit 2`,
    );
    writeFileSync(
      join(w.home, "settings.json"),
      JSON.stringify({
        hooks: { PreToolUse: [commandHook(block, "shell")] },
        subagents: { tools: ["shell", "list_dir", "glob"], maxTurns: 2 },
      }),
    );
    const r = await keel(w, ["run", "go", "--output-format", "json", "--yes"]);
    expect(r.code).toBe(0);
    const subReqs = w.sim.requests.filter((q) => q.messages[1]?.content === "FIND things");
    expect(toolNames(subReqs[0]?.toolsText)).toEqual(["glob", "list_dir", "shell"]);
    expect(subReqs).toHaveLength(2);
    expect(subReqs[1]?.messages.at(-1)?.content).toMatch(/no shell in sub-agents/);
    const main = w.sim.requests.at(-1);
    expect(main?.messages.at(-1)?.content).toMatch(
      /did not finish: it reached its limit of 2 model requests/,
    );
    expect(JSON.parse(r.stdout).toolCalls[0].status).toBe("error");
  });

  it("a 'no' to a sub-agent's call stops the parent's turn too, which waits for the user", async () => {
    const w = await newWorld(
      script(
        reply().tool("task", { description: "d", prompt: "FIND and fix" }),
        reply().when(sub).tool("write_file", { path: "x.txt", content: "x" }),
        reply().when(sub).text("could not write"),
        reply().text("trying another way"),
      ),
    );
    writeFileSync(
      join(w.home, "settings.json"),
      JSON.stringify({ subagents: { tools: ["write_file"] } }),
    );
    const asked: string[] = [];
    const agent = await agentFor(w, {
      askPermission: async (req) => {
        asked.push(req.summary);
        return "deny";
      },
    });
    const events = await collect(agent.runTurn("go"));
    expect(asked).toEqual(["write_file x.txt"]);
    // The sub-agent's turn ended at the no, and the parent asked the model nothing more.
    expect(w.sim.requests).toHaveLength(2);
    const task = events.find((e) => e.type === "tool_result" && e.name === "task");
    expect(task).toMatchObject({ status: "error" });
    expect(events.at(-1)).toMatchObject({ type: "turn_end", stopReason: "hook_stop" });
    await collect(agent.runTurn("leave x alone"));
    const sent = w.sim.requests[2]?.messages ?? [];
    expect(sent.at(-2)?.content).toMatch(/user denied write_file x.txt inside the sub-agent/);
    expect(sent.at(-1)?.content).toBe("leave x alone");
  });

  it("is Task to Claude Code hooks, inside sub-agents too (agent_type in the payload)", async () => {
    const w = await newWorld(
      script(
        reply().tool("task", { description: "look", prompt: "FIND it" }),
        reply().when(sub).tool("list_dir", { path: "." }),
        reply().when(sub).text("found"),
        reply().text("done"),
      ),
    );
    const log = join(w.root, "claude.log");
    const logger = hookScript(w, "claude-log.sh", `cat >> "${log}"\necho >> "${log}"`);
    mkdirSync(join(w.root, ".claude"), { recursive: true });
    writeFileSync(
      join(w.root, ".claude", "settings.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            { matcher: "Task", hooks: [{ type: "command", command: logger }] },
            { matcher: "LS", hooks: [{ type: "command", command: logger }] },
          ],
        },
      }),
    );
    const r = await keel(w, ["run", "go"]);
    expect(r.code).toBe(0);
    const payloads = readFileSync(log, "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l));
    expect(payloads.map((p) => [p.tool_name, p.agent_type ?? null])).toEqual([
      ["Task", null],
      ["LS", "task"],
    ]);
    expect(payloads[0].tool_input).toEqual({ description: "look", prompt: "FIND it" });
  });
});
