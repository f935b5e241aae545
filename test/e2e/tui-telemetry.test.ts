/**
 * End to end: the real `keel` TUI in tmux with telemetry on, against the simulator and a
 * loopback OTLP receiver (test/telemetry/otlp-receiver.ts). A prompt, /clear, another prompt,
 * /exit: both sessions arrive as `invoke_agent` spans from the one process (front end `tui`),
 * and, with the batch delay far away, only because Keel flushes at exit. Control: telemetry
 * off sends nothing.
 */
import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/builder.js";
import { startSimulator } from "../../src/sim/server.js";
import { attr, type Receiver, spansOf, startHttpReceiver } from "../telemetry/otlp-receiver.js";
import { e2eLifecycle, hasTmux, TmuxTerminal } from "./tui-harness.js";

const TMUX = hasTmux();
if (!TMUX) console.warn("test/e2e/tui-telemetry.test.ts: tmux is not installed; skipping");

const e2e = e2eLifecycle({ skip: !TMUX });
let receiver: Receiver;
beforeEach(async () => {
  receiver = await startHttpReceiver();
});
afterEach(async () => {
  await receiver.close();
});

async function session(telemetry: Record<string, string>) {
  const { home, keelHome, project } = e2e.world("keel-tui-otel-");
  const sim = await startSimulator({
    script: script(reply().text("FIRST-ANSWER"), reply().text("SECOND-ANSWER")),
  });
  e2e.sims.push(sim);
  const config = join(keelHome, "config.json");
  await writeFile(config, JSON.stringify({ apiKey: "sk-e2e-0000", baseUrl: sim.url }));
  await chmod(config, 0o600);
  const term = new TmuxTerminal({
    cwd: project,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      KEEL_HOME: keelHome,
      TERM: "xterm-256color",
      LANG: "C.UTF-8",
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      // Nothing leaves on a timer: what arrives, arrives through the flush at exit.
      OTEL_BSP_SCHEDULE_DELAY: "600000",
      OTEL_METRIC_EXPORT_INTERVAL: "600000",
      ...(process.env.NODE_PATH ? { NODE_PATH: process.env.NODE_PATH } : {}),
      ...telemetry,
    },
    argv: [process.execPath, e2e.bin],
  });
  e2e.terminals.push(term);
  await term.waitFor((t) => t.includes("ask Keel, or /help"), { what: "the prompt" });
  term.type("hello");
  term.press("Enter");
  await term.waitFor((t) => t.includes("FIRST-ANSWER"), { what: "the first answer" });
  term.type("/clear");
  term.press("Enter");
  await term.waitFor((t) => !t.includes("FIRST-ANSWER"), { what: "the cleared screen" });
  term.type("again");
  term.press("Enter");
  await term.waitFor((t) => t.includes("SECOND-ANSWER"), { what: "the second answer" });
  const beforeExit = receiver.received.length;
  term.type("/exit");
  term.press("Enter");
  const screen = await term.waitFor((t) => t.includes("KEEL_EXITED"), {
    what: "keel to exit",
    history: true,
  });
  expect(screen).toContain("KEEL_EXITED 0");
  return { beforeExit, screen };
}

describe.skipIf(!TMUX)("the TUI with telemetry", () => {
  it("exports both sessions of a /clear from one process, flushed at exit", async () => {
    const { beforeExit, screen } = await session({ KEEL_ENABLE_TELEMETRY: "1" });
    expect(screen).not.toContain("telemetry is on but could not start");
    expect(beforeExit).toBe(0);
    const spans = spansOf(receiver.received);
    const sessions = spans.filter((s) => s.name === "invoke_agent keel");
    expect(sessions).toHaveLength(2);
    for (const s of sessions) expect(attr(s, "keel.front_end")).toBe("tui");
    const ids = sessions.map((s) => attr(s, "gen_ai.conversation.id"));
    expect(new Set(ids).size).toBe(2);
    const turns = spans.filter((s) => s.name === "keel.turn");
    expect(turns.map((t) => sessions.findIndex((s) => s.spanId === t.parentSpanId))).toEqual([
      0, 1,
    ]);
    expect(spans.filter((s) => s.name.startsWith("chat "))).toHaveLength(2);
  }, 180_000);

  it("control: telemetry off sends nothing", async () => {
    await session({});
    expect(receiver.received).toEqual([]);
  }, 180_000);
});
