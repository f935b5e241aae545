/**
 * `/rewind` in the TUI, on a real session backend against the simulator: with no N it lists
 * the user turns; `/rewind N files` puts back the files turn N changed and keeps the
 * conversation; `/rewind N conversation` drops the turn, so the next request is a byte prefix
 * of an earlier one.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runSlashCommand, type SlashIO } from "../../../src/cli/tui/commands.js";
import { createPermissionBridge } from "../../../src/cli/tui/permission-bridge.js";
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

it("/rewind lists turns, restores files, then drops the conversation", async () => {
  const w = await start(
    script(
      reply().text("one"),
      reply().tool("edit_file", { path: "a.txt", old_string: "v1", new_string: "v2" }),
      reply().text("two"),
      reply().text("three"),
    ),
  );
  writeFileSync(join(w.project, "a.txt"), "v1\n");
  const permissions = createPermissionBridge();
  permissions.subscribe((p) => p?.answer("allow_once"));
  const { backend, close } = await backendFor(w, permissions);
  const io = recordingIo();
  const slash = (...args: string[]) => runSlashCommand({ name: "rewind", args }, { backend, io });
  try {
    await collect(backend.agent().runTurn("first prompt here"));
    await collect(backend.agent().runTurn("second prompt edits"));
    expect(readFileSync(join(w.project, "a.txt"), "utf8")).toBe("v2\n");

    await slash();
    expect(io.said.some((l) => /^\s+1 {2}.*first prompt here/.test(l))).toBe(true);
    expect(io.said.some((l) => /^\s+2 {2}.*second prompt edits/.test(l))).toBe(true);

    await slash("2", "files");
    expect(readFileSync(join(w.project, "a.txt"), "utf8")).toBe("v1\n");
    expect(io.said).toContain("restored a.txt");

    await slash("2", "conversation");
    expect(io.said.at(-1)).toMatch(/[1-9]\d* message\(s\) dropped/);
    await collect(backend.agent().runTurn("third"));
  } finally {
    close();
  }
  const turnTwo = w.sim.requests[1]?.messageTexts ?? [];
  const after = w.sim.requests.at(-1)?.messageTexts ?? [];
  expect(after.slice(0, -1)).toEqual(turnTwo.slice(0, -1));
});

it("/rewind past a /compact is refused whole; /rewind N files still puts the files back", async () => {
  const w = await start(
    script(
      reply().text("one"),
      reply().tool("write_file", { path: "b.txt", content: "made\n" }),
      reply().text("two"),
      reply().when({ lastUserContains: "Summarize this conversation" }).text("SUMMARY: b.txt"),
      reply().text("three"),
    ),
  );
  const permissions = createPermissionBridge();
  permissions.subscribe((p) => p?.answer("allow_once"));
  const { backend, close } = await backendFor(w, permissions);
  const io = recordingIo();
  const slash = (name: string, ...args: string[]) =>
    runSlashCommand({ name, args }, { backend, io });
  try {
    await collect(backend.agent().runTurn("first"));
    await collect(backend.agent().runTurn("second writes"));
    // Compacted after turn 2: turns 1 and 2 live on only in the summary.
    await slash("compact");
    await slash("rewind", "2");
    expect(io.said.at(-1)).toMatch(
      /^error: \/rewind failed: rewind: the conversation was compacted during turn 2.*\/rewind 2 files/,
    );
    expect(readFileSync(join(w.project, "b.txt"), "utf8")).toBe("made\n");
    await slash("rewind", "2", "files");
    expect(io.said).toContain("deleted b.txt (it did not exist before)");
    await collect(backend.agent().runTurn("third"));
  } finally {
    close();
  }
  // The conversation went on from the summary.
  expect(w.sim.requests.at(-1)?.messageTexts.join("\n")).toMatch(/SUMMARY: b\.txt/);
});
