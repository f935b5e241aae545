/**
 * The Claude Code events whose moments Keel has beyond the classic ones, fired by a real agent
 * against the simulator with real hook scripts: StopFailure, PostToolBatch, PermissionDenied
 * (with `retry`), and ConfigChange on reload.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stopFailureKind } from "../../../src/agent/hook-adapter/moments.js";
import { createChatClient } from "../../../src/llm/client.js";
import { type ReplyInput, reply, script } from "../../../src/sim/index.js";
import {
  agentFor,
  collect,
  commandHook,
  hookScript,
  type World,
  worldPerTest,
  writeSettings,
} from "../harness.js";

const newWorld = worldPerTest();

async function start(...replies: ReplyInput[]): Promise<World> {
  return newWorld(script(...replies));
}

/** A hook that appends its stdin (one JSON line) to a log and prints `out`. */
function recorder(w: World, name: string, out = ""): { path: string; lines: () => unknown[] } {
  const log = join(w.root, `${name}.log`);
  const path = hookScript(w, `${name}.sh`, `cat >> "${log}"\necho >> "${log}"\n${out}`);
  return {
    path,
    lines: () => {
      try {
        return readFileSync(log, "utf8")
          .split("\n")
          .filter((l) => l.trim() !== "")
          .map((l) => JSON.parse(l));
      } catch {
        return [];
      }
    },
  };
}

describe("StopFailure", () => {
  it("fires when the model request fails, with Claude's error kind", async () => {
    const w = await start(reply().error(401, { message: "invalid api key" }));
    const rec = recorder(w, "fail");
    writeSettings(w, { StopFailure: [commandHook(rec.path)] });
    const agent = await agentFor(w, {
      client: createChatClient({ baseUrl: w.sim.url, apiKey: "sk-test", maxRetries: 0 }),
    });
    const events = await collect(agent.runTurn("hi"));
    expect(events.some((e) => e.type === "error")).toBe(true);
    expect(rec.lines()).toEqual([
      expect.objectContaining({ hook_event_name: "StopFailure", error: "authentication_failed" }),
    ]);
  });

  it.each([
    ["HTTP 429 Too Many Requests", "rate_limit"],
    ["HTTP 503 overloaded", "server_error"],
    ["the provider stopped at max tokens", "max_output_tokens"],
    ["HTTP 400 bad request", "invalid_request"],
    ["socket hang up", "unknown"],
  ])("%s → %s", (message, kind) => {
    expect(stopFailureKind(message)).toBe(kind);
  });
});

describe("PostToolBatch", () => {
  it("fires once per model response with every call, and its context reaches the model", async () => {
    const w = await start(
      reply().tool("list_dir", { path: "." }).tool("glob", { pattern: "*.md" }),
      reply().text("done"),
    );
    const rec = recorder(
      w,
      "batch",
      `echo '{"hookSpecificOutput":{"hookEventName":"PostToolBatch","additionalContext":"batch reviewed"}}'`,
    );
    writeSettings(w, { PostToolBatch: [commandHook(rec.path)] });
    const agent = await agentFor(w);
    await collect(agent.runTurn("look around"));
    const lines = rec.lines() as { tool_calls: { tool_name: string }[] }[];
    expect(lines).toHaveLength(1);
    expect(lines[0]?.tool_calls.map((c) => c.tool_name)).toEqual(["list_dir", "glob"]);
    const sent = JSON.stringify(w.sim.requests[1]?.messages ?? []);
    expect(sent).toContain("batch reviewed");
  });

  it("exit 2 stops the turn before the next model request", async () => {
    const w = await start(reply().tool("list_dir", { path: "." }), reply().text("never"));
    const hook = hookScript(w, "stop.sh", "cat >/dev/null\necho 'enough for now' >&2\nexit 2");
    writeSettings(w, { PostToolBatch: [commandHook(hook)] });
    const agent = await agentFor(w);
    const events = await collect(agent.runTurn("look"));
    expect(w.sim.requests).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: "turn_end", stopReason: "hook_stop" });
  });
});

describe("PermissionDenied", () => {
  it("fires for a call refused without asking (headless), and `retry` reaches the model", async () => {
    const w = await start(
      reply().tool("write_file", { path: "a.txt", content: "x" }),
      reply().text("ok"),
    );
    const rec = recorder(
      w,
      "denied",
      `echo '{"hookSpecificOutput":{"hookEventName":"PermissionDenied","retry":true}}'`,
    );
    writeSettings(w, { PermissionDenied: [commandHook(rec.path, "write_file")] });
    const agent = await agentFor(w);
    const events = await collect(agent.runTurn("write"));
    expect(rec.lines()).toEqual([
      expect.objectContaining({
        hook_event_name: "PermissionDenied",
        tool_name: "write_file",
        reason: expect.stringContaining("headless"),
      }),
    ]);
    const result = events.find((e) => e.type === "tool_result");
    expect(result).toMatchObject({ status: "blocked" });
    expect(result && "content" in result ? result.content : "").toContain("may retry");
  });

  it("does not fire when a person denies", async () => {
    const w = await start(
      reply().tool("write_file", { path: "a.txt", content: "x" }),
      reply().text("ok"),
    );
    const rec = recorder(w, "denied");
    writeSettings(w, { PermissionDenied: [commandHook(rec.path)] });
    const agent = await agentFor(w, { askPermission: async () => "deny" });
    await collect(agent.runTurn("write"));
    expect(rec.lines()).toEqual([]);
  });
});

describe("ConfigChange", () => {
  it("fires on reload for a changed file; a block keeps the hooks in force", async () => {
    const w = await start(reply().text("ok"));
    const guard = hookScript(
      w,
      "guard.sh",
      "cat >/dev/null\necho 'settings are frozen' >&2\nexit 2",
    );
    const settings = join(w.home, "settings.json");
    writeSettings(w, { ConfigChange: [commandHook(guard, "user_settings")] });
    const agent = await agentFor(w);
    const before = agent.hooks.listing().hooks.length;
    writeFileSync(
      settings,
      JSON.stringify({ hooks: { Stop: [commandHook("true")], ConfigChange: [] } }),
    );
    const listing = await agent.hooks.reload();
    expect(listing.hooks).toHaveLength(before);
    expect(listing.problems.map((p) => p.message).join("\n")).toContain("settings are frozen");
  });

  it("without a blocking hook the reload applies", async () => {
    const w = await start(reply().text("ok"));
    const rec = recorder(w, "config");
    writeSettings(w, { ConfigChange: [commandHook(rec.path)] });
    const agent = await agentFor(w);
    writeSettings(w, { ConfigChange: [commandHook(rec.path)], Stop: [commandHook("true")] });
    const listing = await agent.hooks.reload();
    expect(listing.hooks.map((h) => h.event).sort()).toEqual(["ConfigChange", "Stop"]);
    expect(rec.lines()).toEqual([
      expect.objectContaining({
        hook_event_name: "ConfigChange",
        source: "user_settings",
        file_path: join(w.home, "settings.json"),
      }),
    ]);
  });
});
