import { utimesSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type MemoryReport, memoryBlock } from "../../src/agent/memory.js";
import { replayEntries } from "../../src/cli/tui/replay.js";
import {
  latestSession,
  listSessions,
  loadSession,
  resolveSessionId,
} from "../../src/session/list.js";
import { SessionError } from "../../src/session/load.js";
import { createSession } from "../../src/session/store.js";
import { tempDir, tempDirPerTest } from "./helpers.js";

const home = tempDirPerTest("keel-home-");
const projA = tempDirPerTest("keel-a-");
const projB = tempDirPerTest("keel-b-");

function session(projectDir: string, id: string, prompt: string | null, mtimeSec: number) {
  const s = createSession({ keelHome: home.dir, projectDir, model: "m", id });
  if (prompt !== null) {
    s.appendMessage(JSON.stringify({ role: "user", content: prompt }), { turn: 1 });
    s.appendMessage('{"role":"assistant","content":"ok"}', { turn: 1 });
  }
  s.close();
  utimesSync(s.path, mtimeSec, mtimeSec);
  return s;
}

describe("listing sessions", () => {
  it("lists a project's sessions newest first, with counts and a one-line prompt preview", () => {
    session(projA.dir, "aaaa-1111", "fix the\nbug in parser", 1_000);
    session(projA.dir, "aaaa-2222", "x".repeat(200), 3_000);
    session(projB.dir, "bbbb-3333", null, 2_000);
    const a = listSessions({ keelHome: home.dir, projectDir: projA.dir });
    expect(a.map((s) => s.id)).toEqual(["aaaa-2222", "aaaa-1111"]);
    expect(a[1]).toMatchObject({
      projectDir: projA.dir,
      messages: 2,
      firstPrompt: "fix the bug in parser",
    });
    expect(a[0]?.firstPrompt).toHaveLength(80);
    const all = listSessions({ keelHome: home.dir });
    expect(all.map((s) => s.id)).toEqual(["aaaa-2222", "bbbb-3333", "aaaa-1111"]);
    expect(all[1]).toMatchObject({ projectDir: projB.dir, messages: 0, firstPrompt: "" });
  });

  it("previews what the user typed, not the hook context around it", () => {
    const prompt =
      '<hook-context event="SessionStart">\nBranch: main\n</hook-context>\n\nfix the tests\n\n' +
      '<hook-context event="UserPromptSubmit">\nlint is clean\n</hook-context>';
    session(projA.dir, "aaaa-1111", prompt, 1_000);
    const [s] = listSessions({ keelHome: home.dir, projectDir: projA.dir });
    expect(s?.firstPrompt).toBe("fix the tests");
  });

  it("previews the prompt, not the memory files the agent sent before it (CLAUDE.md)", () => {
    const memory = memoryBlock({
      files: [{ label: "CLAUDE.md", scope: "project", content: "# rules\nuse tabs" }],
      skipped: [],
    } as unknown as MemoryReport);
    const s = createSession({ keelHome: home.dir, projectDir: projA.dir, model: "m", id: "m-1" });
    s.appendMessage(JSON.stringify({ role: "user", content: memory }), { turn: 1 });
    s.appendMessage(JSON.stringify({ role: "user", content: "fix the login bug" }), { turn: 1 });
    s.close();
    const [listed] = listSessions({ keelHome: home.dir, projectDir: projA.dir });
    expect(listed?.firstPrompt).toBe("fix the login bug");
    expect(
      replayEntries(
        [memory, JSON.stringify({ role: "user", content: "fix it" })].map((m, i) =>
          i === 0 ? JSON.stringify({ role: "user", content: m }) : m,
        ),
      ),
    ).toEqual([{ kind: "user", text: "fix it" }]);
  });

  it("finds the latest session of a project, or null", () => {
    session(projA.dir, "aaaa-1111", "old", 5_000);
    session(projA.dir, "aaaa-2222", "new", 6_000);
    session(projB.dir, "bbbb-3333", "other", 9_000);
    expect(latestSession({ keelHome: home.dir, projectDir: projA.dir })?.id).toBe("aaaa-2222");
    // A newer session with no conversation (its prompt was blocked) is not what --continue wants.
    session(projA.dir, "aaaa-3333", null, 7_000);
    expect(latestSession({ keelHome: home.dir, projectDir: projA.dir })?.id).toBe("aaaa-2222");
    const empty = tempDir("keel-empty-");
    expect(latestSession({ keelHome: home.dir, projectDir: empty.dir })).toBeNull();
    empty.cleanup();
  });

  it("says which newer session files cannot be read instead of passing them over in silence", async () => {
    session(projA.dir, "aaaa-1111", "old", 5_000);
    const damaged = session(projA.dir, "aaaa-2222", "new", 6_000);
    writeFileSync(damaged.path, '{"type":"meta",\n{"type":"message"}\n');
    utimesSync(damaged.path, 6_000, 6_000);
    const told: string[] = [];
    const onUnreadable = (u: { path: string; reason: string }) => told.push(u.reason);
    const latest = latestSession({ keelHome: home.dir, projectDir: projA.dir, onUnreadable });
    expect(latest?.id).toBe("aaaa-1111");
    expect(told).toEqual([`${damaged.path} is not a Keel session (no session line at the top)`]);
    // An unreadable file older than the one taken is not what --continue meant: not told.
    utimesSync(damaged.path, 4_000, 4_000);
    told.length = 0;
    latestSession({ keelHome: home.dir, projectDir: projA.dir, onUnreadable });
    expect(told).toEqual([]);
    // The listing leaves it out and tells, whatever its age.
    expect(listSessions({ keelHome: home.dir, onUnreadable }).map((s) => s.id)).toEqual([
      "aaaa-1111",
    ]);
    expect(told).toHaveLength(1);
    const { openAgentSession } = await import("../../src/agent/session.js");
    utimesSync(damaged.path, 6_000, 6_000);
    const opened = openAgentSession({
      keelHome: home.dir,
      projectDir: projA.dir,
      model: "m",
      continueLatest: true,
    });
    expect(opened.warnings).toEqual([
      `${damaged.path} is not a Keel session (no session line at the top); continuing the older session aaaa-111 instead`,
    ]);
    opened.close();
    const { runSessions } = await import("../../src/cli/commands/sessions.js");
    const warned: string[] = [];
    await runSessions({ cwd: projA.dir }, { keelHome: home.dir, warn: (l) => warned.push(l) });
    expect(warned).toEqual([
      `keel: ${damaged.path} is not a Keel session (no session line at the top); not listed`,
    ]);
  });

  it("resolves ids by unique prefix and explains misses and ambiguity", () => {
    session(projA.dir, "aaaa-1111", "p", 1);
    session(projA.dir, "aaaa-2222", "p", 1);
    session(projB.dir, "bbbb-3333", "p", 1);
    expect(resolveSessionId({ keelHome: home.dir, id: "aaaa-1" })).toMatchObject({
      ok: true,
      id: "aaaa-1111",
    });
    expect(resolveSessionId({ keelHome: home.dir, id: "b" })).toMatchObject({
      ok: true,
      id: "bbbb-3333",
    });
    const amb = resolveSessionId({ keelHome: home.dir, id: "aaaa" });
    expect(amb).toEqual({
      ok: false,
      error: expect.stringContaining('"aaaa" matches 2 sessions (aaaa-1111, aaaa-2222)'),
    });
    expect(resolveSessionId({ keelHome: home.dir, id: "zz" })).toEqual({
      ok: false,
      error: expect.stringContaining('no session matches "zz"'),
    });
    expect(loadSession({ keelHome: home.dir, id: "aaaa-2" }).meta.id).toBe("aaaa-2222");
    expect(() => loadSession({ keelHome: home.dir, id: "aaaa" })).toThrow(SessionError);
  });
});
