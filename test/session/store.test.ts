import { appendFileSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadSession, openSession } from "../../src/session/list.js";
import { liveMessages } from "../../src/session/load.js";
import { projectSessionsDir } from "../../src/session/paths.js";
import { createSession } from "../../src/session/store.js";
import { tempDirPerTest } from "./helpers.js";

const home = tempDirPerTest("keel-home-");
const project = tempDirPerTest("keel-proj-");

// Deliberately not what JSON.stringify would produce: escapes kept as escapes, odd spacing, key
// order, a line separator, a surrogate pair written both ways. Re-serializing would change bytes.
const RENDERED = [
  '{"role":"system","content":"caf\\u00e9 and café ☕"}',
  '{ "role" : "user", "content": "line1\\nline2\\r\\n\\t\\"quoted\\" \\\\ back\\/slash \u2028 \\u2028" }',
  '{"content":"emoji 😀 \\ud83d\\ude00","role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"shell","arguments":"{\\"command\\":\\"ls -la\\"}"}}]}',
  '{"role":"tool","tool_call_id":"c1","content":"total 0\\n-rw-r--r-- 1 a b 0 x\\u0000y"}',
  '{"role":"user","content":1e2}',
];

describe("session store", () => {
  it("gives back every message byte for byte, with meta, events and usage", () => {
    const s = createSession({
      keelHome: home.dir,
      projectDir: project.dir,
      model: "deepseek-v4-flash",
    });
    expect(s.path.startsWith(projectSessionsDir(home.dir, project.dir))).toBe(true);
    RENDERED.forEach((r, i) => {
      s.appendMessage(r, { turn: i < 2 ? 1 : 2 });
    });
    s.appendEvent({ kind: "turn_end", turn: 2, type: "ignored" });
    s.appendUsage({
      model: "deepseek-v4-flash",
      promptTokens: 100,
      cacheHitTokens: 64,
      cacheMissTokens: 36,
      completionTokens: 5,
      costUsd: 0.001,
      costWithoutCacheUsd: 0.002,
    });
    s.close();
    const loaded = loadSession({ keelHome: home.dir, id: s.id });
    expect(loaded.messages).toEqual(RENDERED);
    for (const [i, m] of loaded.messages.entries())
      expect(Buffer.from(m)).toEqual(Buffer.from(RENDERED[i] ?? ""));
    expect(loaded.turns).toEqual([1, 1, 2, 2, 2]);
    expect(loaded.meta).toMatchObject({
      id: s.id,
      projectDir: project.dir,
      model: "deepseek-v4-flash",
    });
    expect(loaded.events).toEqual([
      { kind: "turn_end", atMessage: 5, ts: expect.any(String), data: { turn: 2 } },
    ]);
    expect(loaded.usage).toEqual([
      expect.objectContaining({ sessionId: s.id, projectDir: project.dir, promptTokens: 100 }),
    ]);
    expect(loaded.warnings).toEqual([]);
  });

  it("refuses rendered messages that would break the line format", () => {
    const s = createSession({ keelHome: home.dir, projectDir: project.dir, model: "m" });
    expect(() => s.appendMessage('{"a":\n1}', { turn: 1 })).toThrow(/raw newline/);
    expect(() => s.appendMessage('{"a":', { turn: 1 })).toThrow(/not valid JSON/);
    s.close();
    expect(() => s.appendMessage("{}", { turn: 1 })).toThrow(/closed/);
    expect(loadSession({ keelHome: home.dir, id: s.id }).messages).toEqual([]);
  });

  it("ignores a torn last line with a warning, and resuming keeps later lines intact", () => {
    const s = createSession({ keelHome: home.dir, projectDir: project.dir, model: "m" });
    s.appendMessage('{"role":"user","content":"one"}', { turn: 1 });
    s.close();
    appendFileSync(s.path, '{"type":"message","turn":1,"m":{"role":"assis');
    const torn = loadSession({ keelHome: home.dir, id: s.id });
    expect(torn.messages).toEqual(['{"role":"user","content":"one"}']);
    expect(torn.warnings).toHaveLength(1);
    expect(torn.warnings[0]).toContain("incomplete last line ignored");

    const { handle } = openSession({ keelHome: home.dir, id: s.id });
    handle.appendMessage('{"role":"user","content":"two"}', { turn: 2 });
    handle.close();
    const resumed = loadSession({ keelHome: home.dir, id: s.id });
    expect(resumed.messages).toEqual([
      '{"role":"user","content":"one"}',
      '{"role":"user","content":"two"}',
    ]);
    expect(resumed.warnings).toEqual([`${s.path} line 3: not valid JSON, ignored`]);
    expect(readFileSync(s.path, "utf8").endsWith('"two"}}\n')).toBe(true);
  });

  it("replays only the messages after the last compaction", () => {
    const s = createSession({ keelHome: home.dir, projectDir: project.dir, model: "m" });
    s.appendMessage('{"n":1}', { turn: 1 });
    s.appendMessage('{"n":2}', { turn: 1 });
    s.appendEvent({ kind: "compaction", trigger: "manual" });
    s.appendMessage('{"n":"summary"}', { turn: 2 });
    s.close();
    const loaded = loadSession({ keelHome: home.dir, id: s.id });
    expect(loaded.messages).toHaveLength(3);
    expect(liveMessages(loaded)).toEqual(['{"n":"summary"}']);
  });

  it("records hook runs beside the session and globally, keeping only allowlisted fields", () => {
    const s = createSession({ keelHome: home.dir, projectDir: project.dir, model: "m" });
    const run = {
      hookId: "h1",
      event: "PreToolUse",
      source: "/p/.keel/settings.json",
      command: "./guard.sh",
      outcome: "block",
      exitCode: 2,
      durationMs: 12,
      startedAt: Date.now(),
      stdout: "SECRET_TOKEN=abc",
      env: { API_KEY: "sk-123" },
      message: "no",
    };
    s.appendHookRun(run);
    s.close();
    const local = readFileSync(s.hooksPath, "utf8");
    const global = readFileSync(`${home.dir}/hooks-audit.jsonl`, "utf8");
    expect(local).toBe(global);
    expect(JSON.parse(local)).toMatchObject({ sessionId: s.id, hookId: "h1", outcome: "block" });
    expect(local).not.toContain("SECRET_TOKEN");
    expect(local).not.toContain("sk-123");
  });
});
