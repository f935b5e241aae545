/**
 * Prompt and agent hooks against the simulator, through `keel run` (issue 5): the agent layer
 * provides the PromptRunner (one JSON-mode call) and the AgentRunner (a read-only sub-agent).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { commandHook, hookScript, keel, worldPerTest, writeSettings } from "./harness.js";

const newWorld = worldPerTest();

const toolNames = (toolsText: string | null | undefined): string[] =>
  JSON.parse(toolsText ?? "[]")
    .map((t: { function: { name: string } }) => t.function.name)
    .sort();

describe("prompt hooks", () => {
  it("ask the cheap model once in JSON mode; ok:false blocks the tool", async () => {
    const world = await newWorld(
      script(
        reply().tool("list_dir", { path: "." }),
        reply()
          .when({ jsonMode: true })
          .text('{"ok": false, "reason": "listing is not allowed here"}'),
        reply().when({ jsonMode: false }).text("understood"),
      ),
    );
    writeSettings(world, {
      PreToolUse: [
        {
          matcher: "list_dir",
          hooks: [{ type: "prompt", prompt: "Is this call safe? $ARGUMENTS" }],
        },
      ],
    });
    const r = await keel(world, ["run", "list files", "--output-format", "json"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.toolCalls[0].status).toBe("blocked");
    const hookReq = world.sim.requests[1];
    expect(hookReq?.rawBody).toContain('"response_format":{"type":"json_object"}');
    expect(hookReq?.messages).toHaveLength(1);
    expect(hookReq?.messages[0]?.content).toContain('"tool_name":"list_dir"');
    expect(hookReq?.toolsText).toBeNull();
    expect(world.sim.requests[2]?.messages.at(-1)?.content).toContain(
      "listing is not allowed here",
    );
    expect(out.hookRuns).toContainEqual(
      expect.objectContaining({ event: "PreToolUse", outcome: "block" }),
    );
    // The hook's model call is paid for and counted.
    expect(out.usage.promptTokens).toBe(world.sim.requests.reduce((n, q) => n + q.promptTokens, 0));
  });

  it("ok:true lets the prompt through", async () => {
    const world = await newWorld(
      script(reply().when({ jsonMode: true }).text('{"ok": true}'), reply().text("hello there")),
    );
    writeSettings(world, {
      UserPromptSubmit: [{ hooks: [{ type: "prompt", prompt: "Is this prompt harmful?" }] }],
    });
    const r = await keel(world, ["run", "say hello", "--output-format", "json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).result).toBe("hello there");
  });
});

describe("agent hooks", () => {
  it("a read-only sub-agent verifies on Stop; its writes and shell are refused; it fires Subagent events, not PreToolUse", async () => {
    const sub = { lastUserContains: "VERIFY" };
    const world = await newWorld(
      script(
        reply().text("I am finished."),
        reply().when(sub).tool("write_file", { path: "hack.txt", content: "x" }),
        reply().when(sub).tool("shell", { command: "touch hacked.txt" }),
        reply().when(sub).tool("read_file", { path: "notes.txt" }),
        reply()
          .when(sub)
          .tool("submit_verdict", { ok: false, reason: "notes.txt still says TODO" }),
        reply().text("Fixed the notes."),
        reply().when(sub).tool("submit_verdict", { ok: true, reason: "looks done" }),
      ),
    );
    const w = world;
    writeFileSync(join(w.project, "notes.txt"), "status: TODO\n");
    const log = join(w.root, "events.log");
    const logger = hookScript(w, "log.sh", `cat >> "${log}"\necho >> "${log}"`);
    writeSettings(w, {
      Stop: [
        { hooks: [{ type: "agent", prompt: "VERIFY that notes.txt says done.", maxTurns: 6 }] },
      ],
      PreToolUse: [commandHook(logger)],
      SubagentStart: [commandHook(logger)],
      SubagentStop: [commandHook(logger)],
    });
    const r = await keel(w, ["run", "finish the notes", "--yes", "--output-format", "json"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.result).toBe("Fixed the notes.");

    expect(existsSync(join(w.project, "hack.txt"))).toBe(false);
    expect(existsSync(join(w.project, "hacked.txt"))).toBe(false);
    const subReqs = w.sim.requests.filter((q) =>
      q.messages.some((m) => m.content?.includes("VERIFY")),
    );
    expect(subReqs.length).toBe(5);
    // The read-only tools, background-job readers included (a sub-agent's job list is its own,
    // and empty: it cannot start jobs).
    expect(toolNames(subReqs[0]?.toolsText)).toEqual([
      "glob",
      "grep",
      "kill_shell",
      "list_dir",
      "read_file",
      "shell_output",
      "submit_verdict",
    ]);
    const refusals = (subReqs[2]?.messages ?? [])
      .filter((m) => m.role === "tool")
      .map((m) => m.content);
    expect(refusals[0]).toMatch(/Unknown tool "write_file"/);
    expect(subReqs[2]?.messages.at(-1)?.content).toMatch(/Unknown tool "shell"/);
    expect(subReqs[3]?.messages.at(-1)?.content).toContain("status: TODO");

    // The verdict became the Stop hook's block reason and the main agent continued with it.
    const continued = w.sim.requests.find((q) =>
      q.messages.at(-1)?.content?.includes("notes.txt still says TODO"),
    );
    expect(continued?.messages.at(-1)?.role).toBe("user");

    const events = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l).hook_event_name);
    expect(events).not.toContain("PreToolUse");
    expect(events.filter((e) => e === "SubagentStart")).toHaveLength(2);
    expect(events.filter((e) => e === "SubagentStop")).toHaveLength(2);
  });
});
