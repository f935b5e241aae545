// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${TOKEN} is written to the config unexpanded
/**
 * `keel mcp` and MCP in `keel run`, in-process against the simulator with real server processes:
 * add / list / get / remove, trust (an untrusted project server is never spawned), and a model
 * calling an MCP tool that a PreToolUse hook with matcher mcp__everything__.* sees.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { commandHook, hookScript, keel, worldPerTest } from "../agent/harness.js";
import { EVERYTHING, FAULT_SERVER } from "../mcp/servers.js";

const newWorld = worldPerTest();

describe("keel mcp add / list / get / remove", () => {
  it("with nothing configured, list names the user file by its real path", async () => {
    const w = await newWorld(script());
    const r = await keel(w, ["mcp", "list", "--cwd", w.project]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      `No MCP servers configured (.mcp.json, .keel/settings*.json, ${join(w.home, "settings.json")}).\n`,
    );
  });

  it("writes the chosen file 0600, lists status and tools, removes", async () => {
    const w = await newWorld(script());
    const cwd = ["--cwd", w.project];
    const added = await keel(w, [
      "mcp",
      "add",
      "fault",
      ...cwd,
      "--scope",
      "user",
      "--",
      process.execPath,
      FAULT_SERVER,
      "ok",
    ]);
    expect(added.stderr).toBe("");
    expect(added.stdout).toMatch(/Added MCP server fault to .*settings\.json \(user\)/);
    const file = join(w.home, "settings.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8")).mcpServers.fault).toEqual({
      command: process.execPath,
      args: [FAULT_SERVER, "ok"],
    });
    const remote = await keel(w, [
      "mcp",
      "add",
      "--transport",
      "http",
      "remote",
      "http://127.0.0.1:9/mcp",
      ...cwd,
      "--scope",
      "project",
      "-H",
      "Authorization: Bearer ${TOKEN}",
    ]);
    expect(remote.stdout).toMatch(/Added MCP server remote to \.mcp\.json \(project\)/);
    expect(
      JSON.parse(readFileSync(join(w.project, ".mcp.json"), "utf8")).mcpServers.remote,
    ).toEqual({
      type: "http",
      url: "http://127.0.0.1:9/mcp",
      headers: { Authorization: "Bearer ${TOKEN}" },
    });

    const list = await keel(w, ["mcp", "list", ...cwd]);
    expect(list.stdout).toContain("fault  stdio  connected, 2 tools");
    expect(list.stdout).toContain("    mcp__fault__echo");
    expect(list.stdout).toContain(
      "remote  http  untrusted: not started (keel hooks trust)  (.mcp.json)",
    );
    const json = JSON.parse((await keel(w, ["mcp", "list", "--json", ...cwd])).stdout);
    expect(json.servers.map((s: { name: string; status: string }) => [s.name, s.status])).toEqual([
      ["fault", "connected"],
      ["remote", "untrusted"],
    ]);
    expect(JSON.stringify(json)).not.toContain("Bearer");

    const get = await keel(w, ["mcp", "get", "fault", ...cwd]);
    expect(get.stdout).toMatch(/mcp__fault__echo {2}\[read-only\]/);
    expect(get.stdout).toMatch(/mcp__fault__write_note {2}\[asks\]/);

    const removed = await keel(w, ["mcp", "remove", "fault", ...cwd]);
    expect(removed.stdout).toMatch(/Removed MCP server fault/);
    expect(JSON.parse(readFileSync(file, "utf8")).mcpServers).toEqual({});
    const missing = await keel(w, ["mcp", "remove", "fault", ...cwd]);
    expect(missing.stderr).toMatch(/no MCP server named fault/);
  });
});

describe("trust", () => {
  it("an untrusted project server is never spawned; keel hooks trust shows it and then it starts", async () => {
    const w = await newWorld(script(reply().text("one"), reply().text("two")));
    const marker = join(w.root, "spawned");
    writeFileSync(
      join(w.project, ".mcp.json"),
      JSON.stringify({
        mcpServers: {
          sneaky: {
            command: "sh",
            args: ["-c", `touch '${marker}'; exec '${process.execPath}' '${FAULT_SERVER}' ok`],
          },
        },
      }),
    );
    const first = await keel(w, ["run", "hi"]);
    expect(first.stdout).toContain("one");
    expect(first.stderr).toMatch(
      /project server not started until trusted \(keel hooks trust\): sneaky/,
    );
    expect(existsSync(marker)).toBe(false);

    const trust = await keel(w, ["hooks", "trust", "--cwd", w.project]);
    expect(trust.stdout).toMatch(
      /Trusted 1 project MCP server[\s\S]*sneaky {2}stdio: sh -c .*\(\.mcp\.json\)/,
    );
    const second = await keel(w, ["run", "hi again"]);
    expect(second.stdout).toContain("two");
    expect(existsSync(marker)).toBe(true);
    expect(w.sim.requests[1]?.toolsText).toContain("mcp__sneaky__echo");

    // Editing the definition makes it untrusted again.
    writeFileSync(
      join(w.project, ".mcp.json"),
      JSON.stringify({ mcpServers: { sneaky: { command: "sh", args: ["-c", "exit 1"] } } }),
    );
    const list = await keel(w, ["mcp", "list", "--cwd", w.project]);
    expect(list.stdout).toContain("untrusted");
  });
});

describe("keel run with an MCP server", () => {
  it("the model calls mcp__everything__echo and a PreToolUse hook matching mcp__everything__.* sees it", async () => {
    const w = await newWorld(
      script(
        reply().tool("mcp__everything__echo", { message: "from the model" }),
        reply().text("echoed"),
      ),
    );
    const log = join(w.root, "pre.json");
    const hook = hookScript(w, "pre.sh", `cat > '${log}'`);
    writeFileSync(
      join(w.home, "settings.json"),
      JSON.stringify({
        mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } },
        hooks: { PreToolUse: [commandHook(hook, "mcp__everything__.*")] },
      }),
    );
    const r = await keel(w, ["run", "echo something", "--output-format", "json"]);
    const out = JSON.parse(r.stdout);
    expect(out.result).toBe("echoed");
    expect(out.toolCalls).toEqual([
      { name: "mcp__everything__echo", input: { message: "from the model" }, status: "ok" },
    ]);
    expect(JSON.parse(readFileSync(log, "utf8"))).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "mcp__everything__echo",
      tool_input: { message: "from the model" },
    });
    const toolMessage = w.sim.requests[1]?.messageTexts.find((m) => m.includes('"role":"tool"'));
    expect(toolMessage).toContain("Echo: from the model");
  });
});
