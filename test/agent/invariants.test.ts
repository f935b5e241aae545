import { describe, expect, it } from "vitest";
import { AppendOnlyLog } from "../../src/agent/log.js";
import { ImmutablePrefix } from "../../src/agent/prefix.js";
import { parseRendered, renderMessage } from "../../src/agent/render.js";
import { VolatileScratch } from "../../src/agent/scratch.js";
import type { ChatMessage, ToolSpec } from "../../src/llm/types.js";

const spec = (name: string, parameters: Record<string, unknown>): ToolSpec => ({
  type: "function",
  function: { name, description: `${name} tool`, parameters },
});

describe("renderMessage", () => {
  it("uses one key order whatever order the object was built in", () => {
    const a: ChatMessage = {
      tool_calls: [{ function: { arguments: "{}", name: "ls" }, type: "function", id: "c1" }],
      content: null,
      role: "assistant",
      reasoning_content: "think",
    };
    const b: ChatMessage = {
      role: "assistant",
      content: null,
      reasoning_content: "think",
      tool_calls: [{ id: "c1", type: "function", function: { name: "ls", arguments: "{}" } }],
    };
    expect(renderMessage(a)).toBe(renderMessage(b));
    expect(renderMessage(a)).toBe(
      '{"role":"assistant","content":null,"reasoning_content":"think","tool_calls":[{"id":"c1","type":"function","function":{"name":"ls","arguments":"{}"}}]}',
    );
  });

  it("round-trips through parseRendered and refuses non-canonical bytes", () => {
    const msg: ChatMessage = { role: "tool", content: "ok", tool_call_id: "c1" };
    const bytes = renderMessage(msg);
    expect(parseRendered(bytes)).toEqual(msg);
    expect(parseRendered('{"content":"ok","role":"tool","tool_call_id":"c1"}')).toBeNull();
    expect(parseRendered("not json")).toBeNull();
    expect(parseRendered('{"role":"wizard","content":"x"}')).toBeNull();
  });
});

describe("ImmutablePrefix", () => {
  const tools = [
    spec("read_file", { type: "object", properties: { path: { type: "string" } } }),
    spec("glob", { properties: { pattern: { type: "string" } }, type: "object" }),
  ];

  it("renders identical bytes for the same inputs in any order", () => {
    const a = new ImmutablePrefix({ systemPrompt: "You are Keel.", tools });
    const b = new ImmutablePrefix({ systemPrompt: "You are Keel.", tools: [...tools].reverse() });
    expect(a.toolsJson).toBe(b.toolsJson);
    expect(a.fingerprint).toBe(b.fingerprint);
    expect(a.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(a.toolNames).toEqual(["glob", "read_file"]);
    expect(a.toolsJson).toContain('"parameters":{"properties"');
  });

  it("changes only through addTool, and counts it", () => {
    const p = new ImmutablePrefix({ systemPrompt: "s", tools });
    const before = { fp: p.fingerprint, json: p.toolsJson, msgs: p.messages };
    expect(p.addTool(spec("glob", {}))).toBe(false);
    expect(p.fingerprint).toBe(before.fp);
    expect(p.addTool(spec("mcp__x__y", { type: "object" }))).toBe(true);
    expect(p.fingerprint).not.toBe(before.fp);
    expect(p.revisions).toBe(1);
    expect(p.messages).toBe(before.msgs);
    expect(Object.isFrozen(p.messages)).toBe(true);
  });

  it("differs when the system prompt differs", () => {
    const a = new ImmutablePrefix({ systemPrompt: "a", tools });
    const b = new ImmutablePrefix({ systemPrompt: "b", tools });
    expect(a.fingerprint).not.toBe(b.fingerprint);
  });
});

describe("AppendOnlyLog", () => {
  it("stores each message's bytes once and replays them exactly", () => {
    const persisted: string[] = [];
    const log = new AppendOnlyLog({ onAppend: (b) => persisted.push(b) });
    const first = log.append({ role: "user", content: "hi" });
    const snapshot = log.messages();
    log.append({ role: "assistant", content: "hello" });
    expect(snapshot).toEqual([first]);
    expect(log.messages()).toEqual(persisted);
    expect(log.messages()[0]).toBe(first);
    expect(log.at(-1)).toEqual({ role: "assistant", content: "hello" });
  });

  it("restores stored bytes without re-persisting and rejects garbage", () => {
    const persisted: string[] = [];
    const log = new AppendOnlyLog({ onAppend: (b) => persisted.push(b) });
    const stored = [renderMessage({ role: "user", content: "a" })];
    expect(log.restore(stored)).toEqual({ ok: true });
    expect(persisted).toEqual([]);
    expect(log.messages()).toEqual(stored);
    const bad = log.restore(['{"role":"user"}']);
    expect(bad.ok).toBe(false);
    expect(log.length).toBe(1);
  });

  it("rewrites only through compact, which is counted", () => {
    const log = new AppendOnlyLog();
    log.append({ role: "user", content: "a" });
    log.append({ role: "assistant", content: "b" });
    const r = log.compact([{ role: "user", content: "summary" }]);
    expect(r.before).toBe(2);
    expect(log.messages()).toEqual([renderMessage({ role: "user", content: "summary" })]);
    expect(log.compactions).toBe(1);
  });
});

describe("VolatileScratch", () => {
  it("resets per turn", () => {
    const s = new VolatileScratch();
    s.reasoning = "x";
    s.stopBlocks = 3;
    s.notes.set("plan", [1]);
    s.reset();
    expect([s.reasoning, s.stopBlocks, s.notes.size]).toEqual(["", 0, 0]);
  });
});
