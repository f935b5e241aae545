/**
 * The pure parts behind `keel hooks`: the synthetic payloads of `keel hooks test` and the text
 * layout helpers the output is built with.
 */
import { describe, expect, it } from "vitest";
import { buildTestPayload } from "../../src/cli/commands/hooks/payload.js";
import { chunk, displayPath, table, truncate, wrap, wrapParts } from "../../src/cli/format/text.js";
import { UserError } from "../../src/cli/user-error.js";
import { HOOK_EVENTS } from "../../src/hooks/events.js";

const base = { projectDir: "/work/project", keelHome: "/home/me/.keel" };

describe("buildTestPayload", () => {
  it.each(HOOK_EVENTS)("%s gets a complete payload with the common fields", (event) => {
    const p = buildTestPayload({ ...base, event });
    expect(p).toMatchObject({
      hook_event_name: event,
      cwd: "/work/project",
      permission_mode: "default",
      session_id: "hooks-test",
    });
    expect(p.transcript_path).toBe("/home/me/.keel/sessions/hooks-test.jsonl");
  });

  it("uses Keel tool names and an example input per tool", () => {
    expect(buildTestPayload({ ...base, event: "PreToolUse" })).toMatchObject({
      tool_name: "shell",
      tool_input: { command: "echo hello" },
    });
    expect(buildTestPayload({ ...base, event: "PreToolUse", tool: "write_file" })).toMatchObject({
      tool_name: "write_file",
      tool_input: { path: "hello.txt", content: "hello\n" },
    });
    expect(
      buildTestPayload({
        ...base,
        event: "PreToolUse",
        tool: "mcp__gh__create_issue",
        input: '{"title":"x"}',
      }),
    ).toMatchObject({ tool_name: "mcp__gh__create_issue", tool_input: { title: "x" } });
  });

  it("applies --payload overrides, common fields included", () => {
    const p = buildTestPayload({
      ...base,
      event: "Stop",
      payload: '{"stop_hook_active":true,"permission_mode":"plan"}',
    });
    expect(p).toMatchObject({ stop_hook_active: true, permission_mode: "plan" });
  });

  it.each([
    [{ event: "PreToolUze" }, /unknown event "PreToolUze".*valid events: .*SessionStart/],
    [{ event: "pretooluse" }, /did you mean PreToolUse\?/],
    [{ event: "PreToolUse", input: "[1]" }, /--input must be a JSON object/],
    [{ event: "PreToolUse", input: "{" }, /--input is not valid JSON/],
    [{ event: "SessionEnd", tool: "shell" }, /--tool only applies to tool events/],
    [{ event: "Stop", input: "{}" }, /--input only applies to tool events/],
    [{ event: "Stop", prompt: "x" }, /--prompt only applies to UserPromptSubmit/],
    [{ event: "Stop", payload: '{"stop_hook_active":"yes"}' }, /"stop_hook_active"/],
    [{ event: "Stop", payload: '{"bogus":1}' }, /bogus/],
    [{ event: "SessionStart", payload: '{"permission_mode":"yolo"}' }, /"permission_mode"/],
  ])("%j is a user error", (opts, message) => {
    expect(() => buildTestPayload({ ...base, ...opts })).toThrow(UserError);
    expect(() => buildTestPayload({ ...base, ...opts })).toThrow(message);
  });
});

describe("text layout", () => {
  it("truncates with an ellipsis and flattens newlines", () => {
    expect(truncate("abcdef", 4)).toBe("abc…");
    expect(truncate("ab\ncd", 10)).toBe("ab cd");
    expect(truncate("abc", 3)).toBe("abc");
  });

  it("wraps words to the width with a hanging indent", () => {
    const lines = wrap("one two three four five", { width: 12, indent: "> ", hangingIndent: "  " });
    expect(lines).toEqual(["> one two", "  three four", "  five"]);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(12);
  });

  it("cuts long words only when asked", () => {
    expect(wrap("x".repeat(25), { width: 10 })).toEqual(["x".repeat(25)]);
    expect(wrap("x".repeat(25), { width: 10, breakLongWords: true })).toEqual([
      "x".repeat(10),
      "x".repeat(10),
      "x".repeat(5),
    ]);
  });

  it("keeps parts whole when wrapping a · list", () => {
    expect(wrapParts(["alpha", "beta gamma", "delta"], { width: 20, indent: "  " })).toEqual([
      "  alpha · beta gamma",
      "  delta",
    ]);
  });

  it("chunks text exactly as written", () => {
    expect(chunk('{"a":  "b"}', 5)).toEqual(['{"a":', '  "b"', "}"]);
  });

  it("aligns table columns without trailing spaces", () => {
    expect(
      table([
        ["a", "bb", "c"],
        ["ccc", "d", "e"],
      ]),
    ).toEqual(["a    bb  c", "ccc  d   e"]);
  });

  it("shows paths relative to the base, under ~, or absolute", () => {
    expect(displayPath("/p/x/.keel/settings.json", { base: "/p/x", home: "/h" })).toBe(
      ".keel/settings.json",
    );
    expect(displayPath("/h/.keel/settings.json", { base: "/p/x", home: "/h" })).toBe(
      "~/.keel/settings.json",
    );
    expect(displayPath("/etc/hooks.json", { base: "/p/x", home: "/h" })).toBe("/etc/hooks.json");
  });
});
