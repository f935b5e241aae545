/**
 * Telemetry in the TUI: its session backend (src/cli/tui/session-backend.ts) opens a new agent
 * on /clear, /model and /resume; all of them export through the one process-wide telemetry
 * (src/telemetry/index.ts openTelemetry, as src/cli/tui/run.tsx opens it), each as its own
 * `invoke_agent` span, and what is still batched arrives when the TUI shuts telemetry down at
 * exit. Driven against the simulator with a loopback OTLP receiver that decodes what arrives.
 */
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { openTelemetry } from "../../src/telemetry/index.js";
import { collect, worldPerTest } from "../agent/harness.js";
import { backendFor } from "../cli/tui/session-world.js";
import {
  attr,
  metricsOf,
  type Receiver,
  spansOf,
  startHttpReceiver,
  sumOf,
} from "./otlp-receiver.js";

const start = worldPerTest();
let receiver: Receiver;

beforeEach(async () => {
  receiver = await startHttpReceiver();
  // The OTLP exporters read their endpoint from process.env, as in the real TUI.
  vi.stubEnv("KEEL_ENABLE_TELEMETRY", "1");
  vi.stubEnv("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint);
  vi.stubEnv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf");
  // Nothing leaves on a timer during the test: what arrives, arrives through shutdown's flush.
  vi.stubEnv("OTEL_BSP_SCHEDULE_DELAY", "600000");
  vi.stubEnv("OTEL_METRIC_EXPORT_INTERVAL", "600000");
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await receiver.close();
});

it("exports every agent of one TUI session (/clear, /model, /resume) and flushes at exit", async () => {
  const w = await start(
    script(
      reply().tool("list_dir", { path: "." }),
      reply().text("first"),
      reply().text("second"),
      reply().tool("list_dir", { path: "." }),
      reply().text("third"),
      reply().text("fourth"),
    ),
  );
  const opened = await openTelemetry({ env: process.env, keelHome: w.home, frontEnd: "tui" });
  expect(opened.problem).toBeNull();
  const telemetry = opened.telemetry;
  if (!telemetry) throw new Error("telemetry did not open");
  const { backend, close } = await backendFor(w, undefined, telemetry);
  let first = "";
  let second = "";
  try {
    const drive = async (prompt: string, reason: "clear" | "exit" | "other") => {
      await collect(backend.agent().start());
      await collect(backend.agent().runTurn(prompt));
      await collect(backend.agent().end(reason));
    };
    first = backend.agent().sessionId;
    await drive("hello", "clear");
    expect(await backend.replace({})).toEqual({ ok: true }); // /clear
    second = backend.agent().sessionId;
    await drive("again", "other");
    expect(await backend.replace({ model: "deepseek-v4-pro" })).toEqual({ ok: true }); // /model
    await drive("on pro", "other");
    expect(await backend.replace({ resume: first })).toEqual({ ok: true }); // /resume
    // Not ended, as when the terminal closes under the TUI: shutdown ends its span.
    await collect(backend.agent().start());
    await collect(backend.agent().runTurn("back"));
  } finally {
    close();
  }
  expect(receiver.received).toEqual([]); // nothing on a timer: the flush below is what sends
  await telemetry.shutdown();
  expect(new Set(receiver.received.map((r) => r.encoding))).toEqual(new Set(["protobuf"]));

  const spans = spansOf(receiver.received);
  const sessions = spans.filter((s) => s.name === "invoke_agent keel");
  expect(
    sessions.map((s) => [attr(s, "gen_ai.conversation.id"), attr(s, "gen_ai.request.model")]),
  ).toEqual([
    [first, "deepseek-v4-flash"],
    [second, "deepseek-v4-flash"],
    [second, "deepseek-v4-pro"],
    [first, "deepseek-v4-pro"],
  ]);
  for (const s of sessions) expect(attr(s, "keel.front_end")).toBe("tui");
  // Each agent's turn sits under its own session span.
  const sessionIds = sessions.map((s) => s.spanId);
  const turns = spans.filter((s) => s.name === "keel.turn");
  expect(turns.map((t) => sessionIds.indexOf(t.parentSpanId ?? ""))).toEqual([0, 1, 2, 3]);
  const tools = spans.filter((s) => s.name === "execute_tool list_dir");
  expect(tools.map((t) => turns.findIndex((x) => x.spanId === t.parentSpanId))).toEqual([0, 2]);
  expect(spans.filter((s) => s.name.startsWith("chat ")).length).toBe(6);

  const metrics = metricsOf(receiver.received);
  expect(sumOf(metrics.find((m) => m.name === "keel.tool.calls"))).toBe(2);
  expect(sumOf(metrics.find((m) => m.name === "keel.tokens"))).toBeGreaterThan(0);
}, 60_000);

it("off: no telemetry opens and nothing is sent", async () => {
  vi.stubEnv("KEEL_ENABLE_TELEMETRY", "0");
  const w = await start(script(reply().text("hi")));
  const opened = await openTelemetry({ env: process.env, keelHome: w.home, frontEnd: "tui" });
  expect(opened).toEqual({ telemetry: null, problem: null });
  const { backend, close } = await backendFor(w, undefined, opened.telemetry);
  try {
    await collect(backend.agent().runTurn("hello"));
    await collect(backend.agent().end("exit"));
  } finally {
    close();
  }
  await new Promise((r) => setTimeout(r, 200));
  expect(receiver.received).toEqual([]);
});
