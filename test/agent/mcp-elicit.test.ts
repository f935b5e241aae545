/**
 * Elicitation from a real server (server-everything's trigger-elicitation-request): declined
 * headless, answered by an Elicitation hook, answered by the user, overridden by ElicitationResult.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ElicitationRequest } from "../../src/mcp/index.js";
import { reply, script } from "../../src/sim/index.js";
import { EVERYTHING } from "../mcp/servers.js";
import {
  agentFor,
  collect,
  commandHook,
  hookScript,
  worldPerTest,
  writeSettings,
} from "./harness.js";

const newWorld = worldPerTest();
const TOOL = "mcp__everything__trigger-elicitation-request";
const servers = { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } };

const elicitScript = () => script(reply().tool(TOOL, {}), reply().text("done"));

function toolResult(events: Awaited<ReturnType<typeof collect>>): string {
  const r = events.find((e) => e.type === "tool_result");
  return r?.type === "tool_result" ? r.content : "";
}

describe("MCP elicitation", () => {
  it("is declined in a headless session, with a notice", async () => {
    const w = await newWorld(elicitScript());
    const agent = await agentFor(w, { mcpServers: servers, noHooks: true, autoApprove: true });
    const events = await collect(agent.runTurn("go"));
    await collect(agent.end());
    expect(toolResult(events)).toMatch(/User declined to provide the requested information/);
    const notices = events.flatMap((e) => (e.type === "notice" ? [e.text] : []));
    expect(notices.join("\n")).toMatch(
      /MCP server everything asked for input .*declined: nobody can answer/,
    );
  });

  it("an Elicitation hook (matcher on the server name) answers for the user; ElicitationResult sees the answer", async () => {
    const w = await newWorld(elicitScript());
    const seen = join(w.root, "result.json");
    const answer = hookScript(
      w,
      "answer.sh",
      `cat >/dev/null\necho '{"hookSpecificOutput":{"hookEventName":"Elicitation","action":"accept","content":{"name":"Ada Lovelace"}}}'`,
    );
    const log = hookScript(w, "log.sh", `cat > '${seen}'`);
    writeSettings(w, {
      Elicitation: [commandHook(answer, "everything")],
      ElicitationResult: [commandHook(log)],
    });
    const asked: ElicitationRequest[] = [];
    const agent = await agentFor(w, {
      mcpServers: servers,
      autoApprove: true,
      onElicit: async (req) => {
        asked.push(req);
        return { action: "decline" };
      },
    });
    const events = await collect(agent.runTurn("go"));
    await collect(agent.end());
    expect(toolResult(events)).toContain("- Name: Ada Lovelace");
    expect(asked).toEqual([]); // the hook answered; the user was not asked
    expect(JSON.parse(readFileSync(seen, "utf8"))).toMatchObject({
      hook_event_name: "ElicitationResult",
      mcp_server_name: "everything",
      action: "accept",
      content: { name: "Ada Lovelace" },
    });
  });

  it("the user's answer reaches the server; an ElicitationResult hook exiting 2 declines it", async () => {
    const w = await newWorld(
      script(
        reply().tool(TOOL, {}),
        reply().text("one"),
        reply().tool(TOOL, {}),
        reply().text("two"),
      ),
    );
    const agent = await agentFor(w, {
      mcpServers: servers,
      autoApprove: true,
      onElicit: async (req) => {
        expect(req.requestedSchema).toMatchObject({ type: "object" });
        return { action: "accept", content: { name: "Grace Hopper" } };
      },
    });
    const first = await collect(agent.runTurn("go"));
    expect(toolResult(first)).toContain("- Name: Grace Hopper");
    const veto = hookScript(w, "veto.sh", `cat >/dev/null\necho 'not today' >&2\nexit 2`);
    writeSettings(w, { ElicitationResult: [commandHook(veto)] });
    await agent.hooks.reload();
    const second = await collect(agent.runTurn("again"));
    await collect(agent.end());
    expect(toolResult(second)).toMatch(/User declined/);
  });
});
