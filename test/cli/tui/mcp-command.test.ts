/** `/mcp` against a real agent: list, trust (an untrusted project server starts), reload. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  isPermissionRulesTrusted,
  loadPermissionRules,
} from "../../../src/agent/permissions/rules.js";
import { startSessionServers } from "../../../src/cli/mcp/session-servers.js";
import { runMcpSlash } from "../../../src/cli/tui/mcp-command.js";
import { untrustedHooks } from "../../../src/cli/tui/trust.js";
import { reply, script } from "../../../src/sim/index.js";
import { agentFor, collect, worldPerTest } from "../../agent/harness.js";
import { FAULT_SERVER } from "../../mcp/servers.js";

const newWorld = worldPerTest();

function capture() {
  const printed: string[] = [];
  const notices: string[] = [];
  return {
    printed,
    notices,
    io: {
      print: (b: { title?: string; lines: string[] }) => printed.push(...b.lines),
      notice: (_l: string, text: string) => notices.push(text),
    },
  };
}

describe("/mcp", () => {
  it("lists an untrusted project server; /mcp trust starts it and adds its tools as one revision", async () => {
    const w = await newWorld(
      script(reply().tool("mcp__proj__echo", { text: "hi" }), reply().text("ok")),
    );
    writeFileSync(
      join(w.project, ".mcp.json"),
      JSON.stringify({
        mcpServers: { proj: { command: process.execPath, args: [FAULT_SERVER, "ok"] } },
      }),
    );
    // An allow rule beside it: the TUI's trust does not show it, so it must not trust it.
    mkdirSync(join(w.project, ".claude"));
    writeFileSync(
      join(w.project, ".claude", "settings.json"),
      JSON.stringify({ permissions: { allow: ["Bash"] } }),
    );
    const manager = await startSessionServers({ projectDir: w.project, keelHome: w.home });
    const agent = await agentFor(w, { mcpServers: manager, noHooks: true });
    const ctx = { mcp: agent.mcp, projectDir: w.project, keelHome: w.home };
    const allowRules = () =>
      loadPermissionRules({ projectDir: w.project, keelHome: w.home, homeDir: w.root })
        .projectAllow;

    // The start-up trust prompt lists the server beside any untrusted hooks.
    expect(untrustedHooks(agent.hooks, w.project, agent.mcp)).toEqual([
      {
        kind: "mcp",
        event: "MCP proj",
        command: `stdio: ${process.execPath} ${FAULT_SERVER} ok`,
        source: ".mcp.json",
      },
    ]);

    const list = capture();
    await runMcpSlash([], { ...ctx, io: list.io });
    expect(list.printed).toEqual([
      "  proj  stdio  untrusted: not started (/mcp trust or keel hooks trust)",
    ]);

    const trust = capture();
    await runMcpSlash(["trust"], { ...ctx, io: trust.io });
    expect(trust.printed[0]).toMatch(/Trusted 1 project MCP server/);
    expect(trust.notices).toEqual([
      "MCP tools added: mcp__proj__echo, mcp__proj__write_note (the tool list changed: the next request is one deliberate cache miss)",
    ]);
    expect(trust.printed).toContain("  proj  stdio  connected, 2 tools");
    expect(agent.stats().prefixRevisions).toBe(1);
    expect(untrustedHooks(agent.hooks, w.project, agent.mcp)).toBeNull();
    expect(allowRules()).toHaveLength(1);
    expect(isPermissionRulesTrusted(w.home, w.project, allowRules())).toBe(false);

    const events = await collect(agent.runTurn("use it"));
    expect(events.some((e) => e.type === "tool_result" && e.content === "echo: hi")).toBe(true);
    // Trusted before the session started: no stale "not started until trusted" notice.
    expect(events.filter((e) => e.type === "notice").map((e) => e.text)).not.toContainEqual(
      expect.stringMatching(/not started until trusted/),
    );
    await collect(agent.end());
  });

  it("a session started with the server still untrusted says so once", async () => {
    const w = await newWorld(script(reply().text("ok"), reply().text("ok")));
    writeFileSync(
      join(w.project, ".mcp.json"),
      JSON.stringify({
        mcpServers: { proj: { command: process.execPath, args: [FAULT_SERVER, "ok"] } },
      }),
    );
    const manager = await startSessionServers({ projectDir: w.project, keelHome: w.home });
    const agent = await agentFor(w, { mcpServers: manager, noHooks: true });
    const untrusted = (events: { type: string; text?: string }[]) =>
      events.filter((e) => e.type === "notice" && /not started until trusted/.test(e.text ?? ""));
    expect(untrusted(await collect(agent.runTurn("one")))).toEqual([
      {
        type: "notice",
        level: "warn",
        text: "MCP: project server not started until trusted (keel hooks trust): proj",
      },
    ]);
    expect(untrusted(await collect(agent.runTurn("two")))).toEqual([]);
    await collect(agent.end());
  });

  it("says how to add a server when the session has none", async () => {
    const out = capture();
    await runMcpSlash(["list"], { mcp: undefined, projectDir: "/", keelHome: "/", io: out.io });
    expect(out.printed[0]).toMatch(/No MCP servers in this session/);
  });
});
