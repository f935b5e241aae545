/**
 * The hook audit log (what `keel hooks stats` reads) gets every run the agent fires: with the
 * agent's own engine (the `keel run` path) and with an engine the library user supplies.
 */
import { describe, expect, it } from "vitest";
import { createAgent } from "../../src/agent/agent.js";
import { openAgentSession } from "../../src/agent/session.js";
import { createHookEngine } from "../../src/hooks/index.js";
import { createChatClient } from "../../src/llm/client.js";
import { readHookAudit } from "../../src/session/hook-audit.js";
import { reply, script } from "../../src/sim/index.js";
import { createBuiltinTools } from "../../src/tools/registry.js";
import {
  commandHook,
  hookScript,
  keel,
  type World,
  worldPerTest,
  writeSettings,
} from "./harness.js";

const newWorld = worldPerTest();

async function setup(): Promise<World> {
  const world = await newWorld(script(reply().tool("list_dir", { path: "." }), reply().text("ok")));
  const hook = hookScript(world, "ctx.sh", "cat >/dev/null\necho context");
  writeSettings(world, {
    UserPromptSubmit: [commandHook(hook)],
    PostToolUse: [commandHook(hook, "list_dir")],
  });
  return world;
}

describe("hook audit log", () => {
  it("keel run records each run, globally and beside the session", async () => {
    const w = await setup();
    const r = await keel(w, ["run", "go", "--output-format", "json"]);
    expect(r.code).toBe(0);
    const { sessionId } = JSON.parse(r.stdout);
    const global = readHookAudit({ keelHome: w.home }).records;
    expect(global.map((x) => x.event)).toEqual(["UserPromptSubmit", "PostToolUse"]);
    expect(global.every((x) => x.sessionId === sessionId)).toBe(true);
    const stats = await keel(w, ["hooks", "stats", "--json", "--cwd", w.project]);
    expect(stats.stdout).toContain("UserPromptSubmit");
  });

  it("an engine the library user supplies is recorded too", async () => {
    const w = await setup();
    const hooks = await createHookEngine({
      projectDir: w.project,
      keelHome: w.home,
      homeDir: w.root,
      env: w.env,
    });
    const session = openAgentSession({ keelHome: w.home, projectDir: w.project, model: "m" });
    const agent = await createAgent({
      projectDir: w.project,
      keelHome: w.home,
      hooks,
      session,
      client: createChatClient({ baseUrl: w.sim.url, apiKey: "sk-test" }),
      model: "deepseek-v4-flash",
      tools: createBuiltinTools({ cwd: w.project }),
    });
    for await (const _ of agent.runTurn("go")) {
      // drain
    }
    session.close();
    const records = readHookAudit({ keelHome: w.home, sessionId: session.id }).records;
    expect(records.map((x) => x.event)).toEqual(["UserPromptSubmit", "PostToolUse"]);
    expect(agent.hooks.listing().hooks).toHaveLength(2);
  });
});
