/**
 * `/effort` in the TUI: sets the level the next requests carry, refuses a level the model
 * cannot take (saying why), and the level carries over when /model hands the session on.
 */
import { expect, it } from "vitest";
import { runSlashCommand, type SlashIO } from "../../../src/cli/tui/commands.js";
import { reply, script } from "../../../src/sim/index.js";
import { collect, worldPerTest } from "../../agent/harness.js";
import { backendFor } from "./session-world.js";

const start = worldPerTest();

function recordingIo(): SlashIO & { said: string[] } {
  const said: string[] = [];
  return {
    said,
    print: (b) => said.push(...b.lines),
    notice: (level, text) => said.push(`${level}: ${text}`),
    stream: async (events) => {
      for await (const _ of events);
    },
    signal: new AbortController().signal,
    exit: () => {},
    clearScreen: () => {},
    lastReasoning: () => "",
    agentChanged: () => {},
    showHistory: () => {},
    askTrust: () => {},
    announceHookProblems: () => {},
  };
}

it("/effort sets reasoning_effort, maps what the model lacks, and survives /model", async () => {
  const w = await start(script(reply().text("one"), reply().text("two"), reply().text("three")));
  const { backend, close } = await backendFor(w);
  const io = recordingIo();
  const body = (i: number) => JSON.parse(w.sim.requests[i]?.rawBody ?? "{}");
  try {
    await runSlashCommand({ name: "effort", args: ["max"] }, { backend, io });
    expect(io.said.pop()).toBe("info: effort: max");
    await collect(backend.agent().runTurn("hello"));
    expect(body(0)).toMatchObject({ thinking: { type: "enabled" }, reasoning_effort: "max" });

    await runSlashCommand({ name: "effort", args: ["medium"] }, { backend, io });
    expect(io.said.pop()).toBe(
      "info: effort medium: deepseek-v4-flash takes high, max (or none); using high",
    );
    await runSlashCommand({ name: "effort", args: [] }, { backend, io });
    expect(io.said).toContain("current: high (asked: medium)");

    await runSlashCommand({ name: "model", args: ["deepseek-v4-pro"] }, { backend, io });
    await collect(backend.agent().runTurn("again"));
    expect(body(1)).toMatchObject({ model: "deepseek-v4-pro", reasoning_effort: "high" });

    await runSlashCommand({ name: "effort", args: ["extreme"] }, { backend, io });
    expect(io.said.pop()).toMatch(/^error: unknown effort "extreme"/);
    await runSlashCommand({ name: "effort", args: ["off"] }, { backend, io });
    await collect(backend.agent().runTurn("third"));
    expect(body(2)).not.toHaveProperty("reasoning_effort");
  } finally {
    close();
  }
});

it("/effort on a model that takes none says so and keeps the old level", async () => {
  const w = await start(script(reply().text("one")));
  const { backend, close } = await backendFor(w);
  const io = recordingIo();
  try {
    await runSlashCommand({ name: "model", args: ["deepseek-chat"] }, { backend, io });
    await runSlashCommand({ name: "effort", args: ["high"] }, { backend, io });
    expect(io.said.pop()).toBe(
      'error: model deepseek-chat takes no effort level (data/models.json declares no "effort" for it); effort unchanged',
    );
    await collect(backend.agent().runTurn("hello"));
    expect(JSON.parse(w.sim.requests[0]?.rawBody ?? "{}")).not.toHaveProperty("reasoning_effort");
  } finally {
    close();
  }
});
