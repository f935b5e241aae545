/**
 * Telemetry from `keel acp`: the official ACP SDK's client side drives the built `keel acp`
 * against the simulator (test/cli/acp/client.ts), with a loopback OTLP receiver. Two sessions
 * on one connection arrive as two `invoke_agent` spans (front end `acp`), sent when the editor
 * closes the connection. Control: telemetry off sends nothing.
 */
import * as acp from "@agentclientprotocol/sdk";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { type World, worldPerTest } from "../agent/harness.js";
import { withAcpAgent } from "../cli/acp/client.js";
import { buildPrivate } from "../e2e/tui-harness.js";
import { attr, type Receiver, spansOf, startHttpReceiver } from "./otlp-receiver.js";

let build: ReturnType<typeof buildPrivate>;
beforeAll(() => {
  build = buildPrivate();
}, 240_000);
afterAll(() => build?.cleanup());
const newWorld = worldPerTest();
let receiver: Receiver;
beforeEach(async () => {
  receiver = await startHttpReceiver();
});
afterEach(async () => {
  await receiver.close();
});

async function twoSessions(w: World, telemetry: Record<string, string>) {
  const env = {
    ...w.env,
    KEEL_ENABLE_TELEMETRY: "",
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    OTEL_BSP_SCHEDULE_DELAY: "600000",
    OTEL_METRIC_EXPORT_INTERVAL: "600000",
    ...telemetry,
  };
  const ids: string[] = [];
  await withAcpAgent(
    process.execPath,
    [build.bin, "acp"],
    { env, cwd: w.project },
    async (ctx, editor) => {
      await ctx.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      for (const text of ["one", "two"]) {
        const s = await ctx.request(acp.methods.agent.session.new, {
          cwd: w.project,
          mcpServers: [],
        });
        ids.push(s.sessionId);
        const res = await ctx.request(acp.methods.agent.session.prompt, {
          sessionId: s.sessionId,
          prompt: [{ type: "text", text }],
        });
        expect(res.stopReason, editor.stderr()).toBe("end_turn");
      }
      expect(editor.stderr()).not.toContain("telemetry is on but could not start");
      // Nothing on a timer: what arrives, arrives when the connection closes.
      expect(receiver.received).toEqual([]);
    },
  );
  return ids;
}

it("exports each ACP session as its own span, flushed when the editor disconnects", async () => {
  const w = await newWorld(script(reply().text("first"), reply().text("second")));
  const ids = await twoSessions(w, { KEEL_ENABLE_TELEMETRY: "1" });
  const spans = spansOf(receiver.received);
  const sessions = spans.filter((s) => s.name === "invoke_agent keel");
  expect(sessions.map((s) => attr(s, "gen_ai.conversation.id")).sort()).toEqual([...ids].sort());
  for (const s of sessions) expect(attr(s, "keel.front_end")).toBe("acp");
  const turns = spans.filter((s) => s.name === "keel.turn");
  expect(turns).toHaveLength(2);
  for (const t of turns) expect(sessions.map((s) => s.spanId)).toContain(t.parentSpanId);
}, 90_000);

it("control: telemetry off sends nothing", async () => {
  const w = await newWorld(script(reply().text("first"), reply().text("second")));
  await twoSessions(w, {});
  expect(receiver.received).toEqual([]);
}, 90_000);
