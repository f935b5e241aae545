/**
 * The agent API driven directly (as the TUI drives it): permission prompts and Notification,
 * compaction with PreCompact/PostCompact/SessionStart(compact), async hook results, abort, resume.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { memorySession } from "../../src/agent/agent.js";
import type { AgentEvent, PermissionPrompt } from "../../src/agent/events.js";
import { openAgentSession } from "../../src/agent/session.js";
import type { HookRunRecord } from "../../src/hooks/types.js";
import { type ReplyInput, reply, script } from "../../src/sim/index.js";
import {
  agentFor,
  collect,
  commandHook,
  hookScript,
  type World,
  worldPerTest,
  writeSettings,
} from "./harness.js";

const newWorld = worldPerTest();

async function start(...replies: ReplyInput[]): Promise<World> {
  return newWorld(script(...replies));
}

describe("permission prompts", () => {
  it("fires Notification(permission_prompt), asks, and remembers allow_always", async () => {
    const w = await start(
      reply().tool("write_file", { path: "a.txt", content: "1" }),
      reply().tool("write_file", { path: "b.txt", content: "2" }),
      reply().text("done"),
    );
    const log = join(w.root, "notify.log");
    const hook = hookScript(w, "notify.sh", `cat >> "${log}"\necho >> "${log}"`);
    writeSettings(w, { Notification: [commandHook(hook, "permission_prompt")] });
    const asked: PermissionPrompt[] = [];
    const agent = await agentFor(w, {
      askPermission: async (p) => {
        asked.push(p);
        return "allow_always";
      },
    });
    const events = await collect(agent.runTurn("write two files"));
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ toolName: "write_file", summary: "write_file a.txt" });
    expect(readFileSync(join(w.project, "b.txt"), "utf8")).toBe("2");
    const statuses = events.flatMap((e) => (e.type === "tool_result" ? [e.status] : []));
    expect(statuses).toEqual(["ok", "ok"]);
    const notes = readFileSync(log, "utf8").trim().split("\n").filter(Boolean);
    expect(notes).toHaveLength(1);
    expect(JSON.parse(notes[0] ?? "{}")).toMatchObject({
      hook_event_name: "Notification",
      notification_type: "permission_prompt",
    });
  });

  it("a denied prompt becomes a blocked tool result and the turn waits for the user", async () => {
    const w = await start(
      reply().tool("shell", { command: "touch x" }).tool("shell", { command: "touch y" }),
      reply().text("ok"),
    );
    const asked: string[] = [];
    const agent = await agentFor(w, {
      askPermission: async (req) => {
        asked.push(`${req.summary} | ${req.always}`);
        return "deny";
      },
    });
    const events = await collect(agent.runTurn("go"));
    const results = events.flatMap((e) => (e.type === "tool_result" ? [e.status] : []));
    expect(results).toEqual(["blocked"]);
    // The rest of the batch is not run (nor asked about), and no request follows the no.
    expect(asked).toEqual(["shell touch x | Always allow `touch x` for this session"]);
    expect(w.sim.requests).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: "turn_end" });
    await collect(agent.runTurn("use y only"));
    const sent = w.sim.requests[1]?.messages ?? [];
    expect(sent.at(-3)?.content).toMatch(/user denied shell touch x/);
    expect(sent.at(-2)?.content).toMatch(/^Not run: You denied shell/);
    expect(sent.at(-1)?.content).toBe("use y only");
  });

  it("a prompt that fails (no answer) refuses the call but does not stop the turn", async () => {
    const w = await start(reply().tool("shell", { command: "touch x" }), reply().text("ok"));
    const agent = await agentFor(w, {
      askPermission: async () => {
        throw new Error("no terminal");
      },
    });
    const events = await collect(agent.runTurn("go"));
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({ status: "blocked" });
    expect(w.sim.requests).toHaveLength(2);
    expect(w.sim.requests[1]?.messages.at(-1)?.content).toMatch(/could not be put to the user/);
  });

  it("switches permission mode mid-session and hooks see it", async () => {
    const w = await start(
      reply().tool("write_file", { path: "m.txt", content: "m" }),
      reply().text("ok"),
    );
    const log = join(w.root, "mode.log");
    const hook = hookScript(w, "mode.sh", `cat > "${log}"`);
    writeSettings(w, { PreToolUse: [commandHook(hook)] });
    const agent = await agentFor(w);
    agent.setPermissionMode("acceptEdits");
    expect(agent.getPermissionMode()).toBe("acceptEdits");
    await collect(agent.runTurn("go"));
    expect(readFileSync(join(w.project, "m.txt"), "utf8")).toBe("m");
    expect(JSON.parse(readFileSync(log, "utf8")).permission_mode).toBe("acceptEdits");
  });
});

describe("compaction", () => {
  it("PreCompact block cancels it and nothing is rewritten", async () => {
    const w = await start(reply().text("hello"));
    const hook = hookScript(
      w,
      "nocompact.sh",
      "cat >/dev/null\necho 'keep full history' >&2\nexit 2",
    );
    writeSettings(w, { PreCompact: [commandHook(hook)] });
    const agent = await agentFor(w);
    await collect(agent.runTurn("hi"));
    const before = agent.transcript();
    const events = await collect(agent.compact());
    expect(events.some((e) => e.type === "compacted")).toBe(false);
    expect(events).toContainEqual(
      expect.objectContaining({
        type: "notice",
        text: expect.stringContaining("keep full history"),
      }),
    );
    expect(agent.transcript()).toEqual(before);
    expect(w.sim.requests).toHaveLength(1);
  });

  it("PreCompact's custom_instructions: null when none were given (Claude Code 2.1.332), else the text", async () => {
    const w = await start(
      reply().text("hello"),
      reply().text("SUMMARY one"),
      reply().text("SUMMARY two"),
    );
    const log = join(w.root, "pre.jsonl");
    writeSettings(w, { PreCompact: [commandHook(hookScript(w, "pre.sh", `cat >> "${log}"`))] });
    const agent = await agentFor(w);
    await collect(agent.runTurn("hi"));
    await collect(agent.compact());
    await collect(agent.compact({ instructions: " keep the paths " }));
    const seen = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).custom_instructions);
    expect(seen).toEqual([null, "keep the paths"]);
  });

  it("summarizes with one call, rewrites the log once, then PostCompact and SessionStart(compact)", async () => {
    const w = await start(
      reply().text("first answer"),
      reply().text("SUMMARY: the user said hi."),
      reply().text("after compaction"),
    );
    const log = join(w.root, "compact.log");
    const hook = hookScript(
      w,
      "log.sh",
      `cat >> "${log}"\necho >> "${log}"\necho 'compacted context note'`,
    );
    writeSettings(w, {
      PostCompact: [commandHook(hook)],
      SessionStart: [commandHook(hook, "compact")],
    });
    const session = openAgentSession({
      keelHome: w.home,
      projectDir: w.project,
      model: "deepseek-v4-flash",
    });
    const agent = await agentFor(w, { session });
    await collect(agent.runTurn("hi"));
    const events = await collect(agent.compact({ instructions: "keep file names" }));
    expect(events).toContainEqual(
      expect.objectContaining({
        type: "compacted",
        beforeMessages: 2,
        afterMessages: 1,
        trigger: "manual",
      }),
    );
    expect(agent.stats().compactions).toBe(1);
    // The summary request extended the conversation (it still hit the cache).
    const summaryReq = w.sim.requests[1];
    const firstReq = w.sim.requests[0]?.messageTexts ?? [];
    expect(summaryReq?.messageTexts.slice(0, firstReq.length)).toEqual(firstReq);
    expect(summaryReq?.messages.at(-1)?.content).toContain("keep file names");
    const fired = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(fired.map((p) => p.hook_event_name)).toEqual(["PostCompact", "SessionStart"]);
    expect(fired[1].source).toBe("compact");
    // Claude Code 2.1.332's PostCompact carries the summary the conversation was replaced with.
    expect(fired[0].compact_summary).toBe("SUMMARY: the user said hi.");

    await collect(agent.runTurn("next"));
    const next = w.sim.requests[2]?.messages ?? [];
    // The summary and the next prompt are two stored user messages, sent as one.
    expect(next.map((m) => m.role)).toEqual(["system", "user"]);
    expect(next[1]?.content).toContain("SUMMARY: the user said hi.");
    // SessionStart(compact)'s context follows the prompt (its own stored message, sent joined).
    expect(next[1]?.content).toMatch(/next[\s\S]*compacted context note/);
    session.close();

    // A resumed session replays the compacted log, not the old one.
    const reopened = openAgentSession({
      keelHome: w.home,
      projectDir: w.project,
      model: "deepseek-v4-flash",
      resume: session.id,
    });
    // summary, "next", SessionStart(compact)'s context, the answer: stored separately, replayed
    // with the same merged bytes.
    expect(reopened.messages).toHaveLength(4);
    const resumed = await agentFor(w, { session: reopened });
    expect(resumed.transcript()).toHaveLength(2);
    expect(resumed.transcript()[0]).toBe(w.sim.requests[2]?.messageTexts[1]);
    reopened.close();
  });
});

describe("async hooks", () => {
  it("delivers an async hook's context with the next turn as new content", async () => {
    const w = await start(
      reply().tool("list_dir", { path: "." }),
      reply().text("listed"),
      reply().text("second"),
    );
    const hook = hookScript(
      w,
      "bg.sh",
      `cat >/dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"background scan: clean"}}'`,
    );
    writeSettings(w, { PostToolUse: [commandHook(hook, "list_dir", { async: true })] });
    let sawAsync: () => void = () => {};
    const asyncDone = new Promise<void>((res) => {
      sawAsync = res;
    });
    const session = {
      ...memorySession(),
      appendHookRun: (run: HookRunRecord) => {
        if (run.async) sawAsync();
      },
    };
    const agent = await agentFor(w, { session });
    await collect(agent.runTurn("list"));
    await asyncDone;
    await new Promise((r) => setImmediate(r));
    const second = await collect(agent.runTurn("again"));
    expect(second).toContainEqual(
      expect.objectContaining({ type: "hook_run", run: expect.objectContaining({ async: true }) }),
    );
    const sent = w.sim.requests[2]?.messages ?? [];
    expect(sent.at(-1)?.content).toContain("background scan: clean");
    expect(sent.at(-1)?.content).toContain("again");
    // Earlier messages were not edited: the request extends the previous one.
    const prev = w.sim.requests[1]?.messageTexts ?? [];
    expect(w.sim.requests[2]?.messageTexts.slice(0, prev.length)).toEqual(prev);
  });
});

describe("async hooks within a turn", () => {
  it("an async hook that finished while tools ran is read by the turn's next request", async () => {
    const w = await start(
      reply().tool("list_dir", { path: "." }).tool("shell", { command: "sleep 0.5" }),
      reply().text("done"),
    );
    const hook = hookScript(
      w,
      "bg.sh",
      `cat >/dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"background scan: clean"}}'`,
    );
    writeSettings(w, { PostToolUse: [commandHook(hook, "list_dir", { async: true })] });
    // The shell call only gives the hook time to finish before the next request.
    const agent = await agentFor(w, { permissionMode: "bypassPermissions" });
    const events = await collect(agent.runTurn("list"));
    expect(events).toContainEqual(
      expect.objectContaining({ type: "hook_run", run: expect.objectContaining({ async: true }) }),
    );
    const sent = w.sim.requests[1]?.messages ?? [];
    expect(sent.map((m) => m.role).slice(-4)).toEqual(["assistant", "tool", "tool", "user"]);
    expect(sent.at(-1)?.content).toContain("background scan: clean");
    const prev = w.sim.requests[0]?.messageTexts ?? [];
    expect(w.sim.requests[1]?.messageTexts.slice(0, prev.length)).toEqual(prev);
  });
});

describe("abort", () => {
  it("kills the running tool and ends the turn with a valid log", async () => {
    const w = await start(
      reply().tool("shell", { command: "sleep 30" }).tool("list_dir", { path: "." }),
      reply().text("next turn"),
    );
    const agent = await agentFor(w, { permissionMode: "bypassPermissions" });
    const controller = new AbortController();
    const events: AgentEvent[] = [];
    for await (const ev of agent.runTurn("run it", { signal: controller.signal })) {
      events.push(ev);
      if (ev.type === "tool_call" && ev.name === "shell") controller.abort();
    }
    expect(events.at(-1)).toMatchObject({ type: "turn_end", stopReason: "aborted" });
    const tools = agent.transcript().filter((m) => m.includes('"role":"tool"'));
    expect(tools).toHaveLength(2);
    // The session goes on.
    const next = await collect(agent.runTurn("continue"));
    expect(next.at(-1)).toMatchObject({ type: "turn_end", stopReason: "end", text: "next turn" });
  });
});

describe("resume", () => {
  it("replays the stored bytes exactly and fires SessionStart(resume)", async () => {
    const w = await start(
      reply().tool("list_dir", { path: "." }),
      reply().text("one"),
      reply().text("two"),
    );
    const log = join(w.root, "start.log");
    writeFileSync(log, "");
    const hook = hookScript(w, "start.sh", `cat >> "${log}"\necho >> "${log}"`);
    writeSettings(w, { SessionStart: [commandHook(hook)] });
    const first = openAgentSession({ keelHome: w.home, projectDir: w.project, model: "m" });
    const a = await agentFor(w, { session: first });
    await collect(a.runTurn("first"));
    await collect(a.end());
    first.close();
    const stored = a.transcript();

    const again = openAgentSession({
      keelHome: w.home,
      projectDir: w.project,
      model: "m",
      continueLatest: true,
    });
    expect(again.id).toBe(first.id);
    const b = await agentFor(w, { session: again });
    await collect(b.runTurn("second"));
    again.close();
    const resumedReq = w.sim.requests[2]?.messageTexts ?? [];
    expect(resumedReq.slice(1, 1 + stored.length)).toEqual(stored);
    const sources = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l).source);
    expect(sources).toEqual(["startup", "resume"]);
  });

  it("fires SessionStart with the source the front end names (clear after /clear)", async () => {
    const w = await start(reply().text("fresh"));
    const log = join(w.root, "start.log");
    writeFileSync(log, "");
    const hook = hookScript(w, "start.sh", `jq -r .source >> "${log}"`);
    writeSettings(w, { SessionStart: [commandHook(hook)] });
    const a = await agentFor(w, { startSource: "clear" });
    await collect(a.runTurn("hello"));
    await collect(a.end());
    expect(readFileSync(log, "utf8").trim()).toBe("clear");
  });
});
