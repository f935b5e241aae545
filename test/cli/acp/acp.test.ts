/**
 * `keel acp` end to end: the official ACP SDK's client side spawns the built `keel acp` as an
 * editor would and drives it against the simulator: a prompt's text, a tool call the editor
 * allows or rejects (with its diff), a PreToolUse hook that blocks before the editor is asked,
 * cancel mid-turn, plan mode, and session/load of a stored session.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reply, type ScriptInput, script } from "../../../src/sim/index.js";
import {
  commandHook,
  hookScript,
  type World,
  worldPerTest,
  writeSettings,
} from "../../agent/harness.js";
import { buildPrivate } from "../../e2e/tui-harness.js";
import { FAULT_SERVER } from "../../mcp/servers.js";
import { type AcpEditor, agentText, updatesOf, withAcpAgent } from "./client.js";

let build: ReturnType<typeof buildPrivate>;
beforeAll(() => {
  build = buildPrivate();
}, 240_000);
afterAll(() => build?.cleanup());

const newWorld = worldPerTest();
/** A real 1×1 PNG. */
const PNG_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/** Runs `op` against a spawned `keel acp` in the world's environment. */
function keelAcp<T>(
  w: World,
  op: (ctx: acp.ClientContext, editor: AcpEditor) => Promise<T>,
  flags: string[] = [],
): Promise<T> {
  return withAcpAgent(
    process.execPath,
    [build.bin, "acp", ...flags],
    { env: w.env, cwd: w.project },
    op,
  );
}

async function world(s: ScriptInput): Promise<World> {
  return newWorld(s);
}

describe("keel acp", () => {
  it("initializes, opens a session with modes, and streams a prompt's answer", async () => {
    const w = await world(script(reply().text("Hello from Keel.")));
    await keelAcp(w, async (ctx, editor) => {
      const init = await ctx.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      expect(init.protocolVersion).toBe(acp.PROTOCOL_VERSION);
      expect(init.agentCapabilities?.loadSession).toBe(true);
      expect(init.agentInfo?.name).toBe("keel");
      const s = await ctx.request(acp.methods.agent.session.new, {
        cwd: w.project,
        mcpServers: [],
      });
      expect(s.modes?.currentModeId).toBe("default");
      expect(s.modes?.availableModes.map((m) => m.id)).toEqual(["default", "acceptEdits", "plan"]);
      const res = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId: s.sessionId,
        prompt: [
          { type: "text", text: "say hello" },
          { type: "resource", resource: { uri: "file:///notes.txt", text: "NOTE-BODY" } },
        ],
      });
      expect(res.stopReason).toBe("end_turn");
      expect(agentText(editor.updates)).toBe("Hello from Keel.");
      expect(editor.updates.every((n) => n.sessionId === s.sessionId)).toBe(true);
    });
    // The embedded resource reached the model with the prompt text.
    const sent = JSON.stringify(w.sim.requests[0]?.messages.at(-1));
    expect(sent).toContain("say hello");
    expect(sent).toContain("NOTE-BODY");
  });

  it("an image block reaches a vision model as an image_url part; image capability says so", async () => {
    const w = await world(script(reply().text("A red dot."), reply().text("A note.")));
    w.env.KEEL_MODEL = "keel-sim-vision";
    await keelAcp(w, async (ctx, editor) => {
      const init = await ctx.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
      });
      expect(init.agentCapabilities?.promptCapabilities?.image).toBe(true);
      const s = await ctx.request(acp.methods.agent.session.new, {
        cwd: w.project,
        mcpServers: [],
      });
      const res = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId: s.sessionId,
        prompt: [
          { type: "text", text: "what is this?" },
          { type: "image", data: PNG_BASE64, mimeType: "image/png" },
        ],
      });
      expect(res.stopReason).toBe("end_turn");
      // Its bytes decide, not its mimeType: text sent as an image is refused, nothing sent.
      const fake = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId: s.sessionId,
        prompt: [
          { type: "text", text: "and this?" },
          {
            type: "image",
            data: Buffer.from("not an image").toString("base64"),
            mimeType: "image/png",
            uri: "file:///tmp/fake.png",
          },
        ],
      });
      expect(fake.stopReason).toBe("refusal");
      expect(JSON.stringify(editor.updates)).toContain(
        "image: /tmp/fake.png is not a PNG, JPEG, GIF or WebP image",
      );
      // An embedded file's text is the file's, not typed: its @mention attaches nothing.
      mkdirSync(join(w.root, "Desktop"));
      writeFileSync(join(w.root, "Desktop", "shot.png"), Buffer.from(PNG_BASE64, "base64"));
      const embedded = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId: s.sessionId,
        prompt: [
          { type: "text", text: "summarize" },
          {
            type: "resource",
            resource: { uri: "file:///p/n.md", text: "see @~/Desktop/shot.png" },
          },
        ],
      });
      expect(embedded.stopReason).toBe("end_turn");
    });
    expect(w.sim.requests).toHaveLength(2);
    const user = w.sim.requests[0]?.messages.filter((m) => m.role === "user").at(-1);
    expect(user?.content).toContain("what is this?");
    expect(user?.images).toEqual([`data:image/png;base64,${PNG_BASE64}`]);
    const note = w.sim.requests[1]?.messages.filter((m) => m.role === "user").at(-1);
    expect(note?.content).toContain("see @~/Desktop/shot.png");
    expect(note?.images ?? []).toEqual([]);
  });

  it("an image block for a model without vision: refused, the reason shown, nothing sent", async () => {
    const w = await world(script(reply().text("never")));
    await keelAcp(w, async (ctx, editor) => {
      const init = await ctx.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
      });
      expect(init.agentCapabilities?.promptCapabilities?.image).toBe(false);
      const s = await ctx.request(acp.methods.agent.session.new, {
        cwd: w.project,
        mcpServers: [],
      });
      const res = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId: s.sessionId,
        prompt: [
          { type: "text", text: "what is this?" },
          { type: "image", data: PNG_BASE64, mimeType: "image/png" },
        ],
      });
      expect(res.stopReason).toBe("refusal");
      const said = updatesOf(editor.updates, "agent_thought_chunk")
        .map((u) => (u.content.type === "text" ? u.content.text : ""))
        .join("");
      expect(said).toContain("the model deepseek-v4-flash does not take images");
      expect(said).toContain("data/models.json");
    });
    expect(w.sim.requests).toHaveLength(0);
  });

  it("a write the editor allows: permission request, tool call with kind edit and a diff, file written", async () => {
    const w = await world(
      script(reply().tool("write_file", { path: "a.txt", content: "new\n" }), reply().text("done")),
    );
    writeFileSync(join(w.project, "a.txt"), "old\n");
    await keelAcp(w, async (ctx, editor) => {
      await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
      const s = await ctx.request(acp.methods.agent.session.new, {
        cwd: w.project,
        mcpServers: [],
      });
      editor.answer = "allow_once";
      const res = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId: s.sessionId,
        prompt: [{ type: "text", text: "write it" }],
      });
      expect(res.stopReason).toBe("end_turn");
      const [call] = updatesOf(editor.updates, "tool_call");
      expect(call).toMatchObject({ kind: "edit", status: "pending", title: "write_file: a.txt" });
      const path = join(w.project, "a.txt");
      expect(call?.content).toEqual([{ type: "diff", path, oldText: "old\n", newText: "new\n" }]);
      expect(editor.permissionRequests).toHaveLength(1);
      const asked = editor.permissionRequests[0];
      expect(asked?.toolCall.toolCallId).toBe(call?.toolCallId);
      expect(asked?.options.map((o) => o.kind)).toEqual([
        "allow_once",
        "allow_always",
        "reject_once",
      ]);
      // The editor sees the proposed change before it answers.
      expect(asked?.toolCall.content).toEqual([
        { type: "diff", path, oldText: "old\n", newText: "new\n" },
      ]);
      expect(asked?.toolCall.locations).toEqual([{ path }]);
      expect(asked?.options.find((o) => o.kind === "allow_always")?.name).toMatch(/^Allow /);
      const done = updatesOf(editor.updates, "tool_call_update").at(-1);
      expect(done?.status).toBe("completed");
      expect(done?.content?.[0]).toEqual({
        type: "diff",
        path,
        oldText: "old\n",
        newText: "new\n",
      });
    });
    expect(readFileSync(join(w.project, "a.txt"), "utf8")).toBe("new\n");
  });

  it("a write the editor rejects does not run; the call is reported failed", async () => {
    const w = await world(
      script(reply().tool("write_file", { path: "b.txt", content: "x" }), reply().text("ok")),
    );
    await keelAcp(w, async (ctx, editor) => {
      await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
      const s = await ctx.request(acp.methods.agent.session.new, {
        cwd: w.project,
        mcpServers: [],
      });
      editor.answer = "reject_once";
      await ctx.request(acp.methods.agent.session.prompt, {
        sessionId: s.sessionId,
        prompt: [{ type: "text", text: "write it" }],
      });
      expect(editor.permissionRequests).toHaveLength(1);
      const done = updatesOf(editor.updates, "tool_call_update").at(-1);
      expect(done?.status).toBe("failed");
      expect(JSON.stringify(done?.content)).toContain("The user denied");
    });
    expect(existsSync(join(w.project, "b.txt"))).toBe(false);
  });

  it("a PreToolUse hook's block beats the editor: it is never asked and the file is not written", async () => {
    const w = await world(
      script(reply().tool("write_file", { path: "c.txt", content: "x" }), reply().text("ok")),
    );
    const hook = hookScript(w, "guard.sh", "cat >/dev/null\necho 'c.txt is generated' >&2\nexit 2");
    writeSettings(w, { PreToolUse: [commandHook(hook, "write_file")] });
    await keelAcp(w, async (ctx, editor) => {
      await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
      const s = await ctx.request(acp.methods.agent.session.new, {
        cwd: w.project,
        mcpServers: [],
      });
      editor.answer = "allow_once";
      await ctx.request(acp.methods.agent.session.prompt, {
        sessionId: s.sessionId,
        prompt: [{ type: "text", text: "write it" }],
      });
      expect(editor.permissionRequests).toHaveLength(0);
      const done = updatesOf(editor.updates, "tool_call_update").at(-1);
      expect(done?.status).toBe("failed");
      expect(JSON.stringify(done?.content)).toContain("c.txt is generated");
    });
    expect(existsSync(join(w.project, "c.txt"))).toBe(false);
  });

  it("session/cancel ends a running turn: the prompt resolves with stopReason cancelled", async () => {
    const w = await world(
      script(reply().text("slow answer that never finishes").latency({ firstByteMs: 30_000 })),
    );
    await keelAcp(w, async (ctx) => {
      await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
      const s = await ctx.request(acp.methods.agent.session.new, {
        cwd: w.project,
        mcpServers: [],
      });
      const started = Date.now();
      const pending = ctx.request(acp.methods.agent.session.prompt, {
        sessionId: s.sessionId,
        prompt: [{ type: "text", text: "take your time" }],
      });
      // Cancel once the model request is in flight.
      while (w.sim.requests.length === 0) await new Promise((r) => setTimeout(r, 20));
      await ctx.notify(acp.methods.agent.session.cancel, { sessionId: s.sessionId });
      const res = await pending;
      expect(res.stopReason).toBe("cancelled");
      expect(Date.now() - started).toBeLessThan(20_000);
    });
  });

  it("session/set_mode plan: a write is refused without asking the editor; unknown modes are an error", async () => {
    const w = await world(
      script(reply().tool("write_file", { path: "d.txt", content: "x" }), reply().text("ok")),
    );
    await keelAcp(w, async (ctx, editor) => {
      await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
      const s = await ctx.request(acp.methods.agent.session.new, {
        cwd: w.project,
        mcpServers: [],
      });
      await ctx.request(acp.methods.agent.session.setMode, {
        sessionId: s.sessionId,
        modeId: "plan",
      });
      await expect(
        ctx.request(acp.methods.agent.session.setMode, { sessionId: s.sessionId, modeId: "yolo" }),
      ).rejects.toThrow(/unknown mode "yolo"/);
      editor.answer = "allow_once";
      await ctx.request(acp.methods.agent.session.prompt, {
        sessionId: s.sessionId,
        prompt: [{ type: "text", text: "write it" }],
      });
      expect(editor.permissionRequests).toHaveLength(0);
      expect(updatesOf(editor.updates, "tool_call_update").at(-1)?.status).toBe("failed");
    });
    expect(existsSync(join(w.project, "d.txt"))).toBe(false);
  });

  it("session/load resumes a stored Keel session and streams its conversation back", async () => {
    const w = await world(script(reply().text("first answer"), reply().text("second answer")));
    const id = await keelAcp(w, async (ctx) => {
      await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
      const s = await ctx.request(acp.methods.agent.session.new, {
        cwd: w.project,
        mcpServers: [],
      });
      await ctx.request(acp.methods.agent.session.prompt, {
        sessionId: s.sessionId,
        prompt: [{ type: "text", text: "first question" }],
      });
      return s.sessionId;
    });
    await keelAcp(w, async (ctx, editor) => {
      await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
      const loaded = await ctx.request(acp.methods.agent.session.load, {
        sessionId: id,
        cwd: w.project,
        mcpServers: [],
      });
      expect(loaded.modes?.currentModeId).toBe("default");
      expect(JSON.stringify(updatesOf(editor.updates, "user_message_chunk"))).toContain(
        "first question",
      );
      expect(agentText(editor.updates)).toBe("first answer");
      await ctx.request(acp.methods.agent.session.prompt, {
        sessionId: id,
        prompt: [{ type: "text", text: "second question" }],
      });
      await expect(
        ctx.request(acp.methods.agent.session.load, {
          sessionId: "no-such-session",
          cwd: w.project,
          mcpServers: [],
        }),
      ).rejects.toThrow();
    });
    // The resumed request carried the first exchange.
    expect(JSON.stringify(w.sim.requests[1]?.messages)).toContain("first answer");
  });
  it("an MCP server the editor passes in session/new serves the model's call", async () => {
    const w = await world(
      script(
        reply().tool("mcp__editorfault__echo", { text: "from the editor" }),
        reply().text("ok"),
      ),
    );
    await keelAcp(w, async (ctx, editor) => {
      await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
      const s = await ctx.request(acp.methods.agent.session.new, {
        cwd: w.project,
        mcpServers: [
          { name: "editorfault", command: process.execPath, args: [FAULT_SERVER, "ok"], env: [] },
        ],
      });
      await ctx.request(acp.methods.agent.session.prompt, {
        sessionId: s.sessionId,
        prompt: [{ type: "text", text: "echo" }],
      });
      const done = updatesOf(editor.updates, "tool_call_update").at(-1);
      expect(done?.status).toBe("completed");
      expect(JSON.stringify(done?.content)).toContain("echo: from the editor");
    });
    // The server's tool was declared to the model with the session's tools.
    expect(w.sim.requests[0]?.rawBody).toContain("mcp__editorfault__echo");
  });

  it("a failed model request is a JSON-RPC error that says why", async () => {
    const w = await world(
      script(reply().error(401, { message: "Authentication Fails (bad key)" })),
    );
    await keelAcp(w, async (ctx) => {
      await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
      const s = await ctx.request(acp.methods.agent.session.new, {
        cwd: w.project,
        mcpServers: [],
      });
      await expect(
        ctx.request(acp.methods.agent.session.prompt, {
          sessionId: s.sessionId,
          prompt: [{ type: "text", text: "hi" }],
        }),
      ).rejects.toThrow(/401/);
    });
  });
  it("keel acp --harvest: the plan harvested from the reasoning arrives as a plan update", async () => {
    const plan = JSON.stringify({
      subgoals: ["read the config", "find the port"],
      hypotheses: [],
      uncertainties: [],
      rejectedPaths: [],
    });
    const w = await world(
      script(
        reply().reasoning("First the config, then the port.").tool("list_dir", { path: "." }),
        reply().when({ jsonMode: true }).text(plan),
        reply().text("Done."),
      ),
    );
    await keelAcp(
      w,
      async (ctx, editor) => {
        await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
        const s = await ctx.request(acp.methods.agent.session.new, {
          cwd: w.project,
          mcpServers: [],
        });
        await ctx.request(acp.methods.agent.session.prompt, {
          sessionId: s.sessionId,
          prompt: [{ type: "text", text: "find the port" }],
        });
        expect(updatesOf(editor.updates, "plan")).toEqual([
          {
            sessionUpdate: "plan",
            entries: [
              { content: "read the config", priority: "medium", status: "pending" },
              { content: "find the port", priority: "medium", status: "pending" },
            ],
          },
        ]);
        expect(updatesOf(editor.updates, "agent_thought_chunk").length).toBeGreaterThan(0);
      },
      ["--harvest"],
    );
  });
  it("session/cancel while the editor has not answered a permission request: cancelled, nothing written", async () => {
    const w = await world(
      script(reply().tool("write_file", { path: "e.txt", content: "x" }), reply().text("ok")),
    );
    await keelAcp(w, async (ctx, editor) => {
      await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
      const s = await ctx.request(acp.methods.agent.session.new, {
        cwd: w.project,
        mcpServers: [],
      });
      editor.answer = "never";
      const pending = ctx.request(acp.methods.agent.session.prompt, {
        sessionId: s.sessionId,
        prompt: [{ type: "text", text: "write it" }],
      });
      while (editor.permissionRequests.length === 0) await new Promise((r) => setTimeout(r, 20));
      await ctx.notify(acp.methods.agent.session.cancel, { sessionId: s.sessionId });
      expect((await pending).stopReason).toBe("cancelled");
    });
    expect(existsSync(join(w.project, "e.txt"))).toBe(false);
  });
  it("other commands never load the ACP SDK: it sits in a chunk only `keel acp`'s action imports", async () => {
    const w = await world(script(reply().text("unused")));
    const trace = join(w.root, "trace.mjs");
    writeFileSync(
      trace,
      `import { registerHooks } from "node:module";
registerHooks({ load(url, ctx, next) {
  if (url.startsWith("file:")) process.stderr.write("LOADED " + url + "\\n");
  return next(url, ctx);
} });`,
    );
    const loaded = (args: string[]) => {
      const r = spawnSync(process.execPath, ["--import", trace, build.bin, ...args], {
        env: w.env,
        cwd: w.project,
        encoding: "utf8",
      });
      return r.stderr
        .split("\n")
        .filter((l) => l.startsWith("LOADED file://"))
        .map((l) => new URL(l.slice(7)).pathname);
    };
    const holdsSdk = (files: string[]) =>
      files.filter((f) => readFileSync(f, "utf8").includes("session/request_permission"));
    for (const args of [["--version"], ["run", "--help"], ["hooks", "list"], ["acp", "--help"]]) {
      expect(holdsSdk(loaded(args)), args.join(" ")).toEqual([]);
    }
    // The check can see the SDK: `keel acp` itself loads it (stdin closed: it exits at once).
    expect(holdsSdk(loaded(["acp"])).length).toBeGreaterThan(0);
  });
});
