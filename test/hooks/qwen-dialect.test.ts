/**
 * The Qwen Code dialect as Qwen Code 0.15 measured (npm run compat:qwen), with 0.24's command
 * timeouts (seconds; 1000 or more still milliseconds), unanchored regex matchers, no matchers
 * on UserPromptSubmit, Qwen's payload (timestamp, approval-mode names, {llmContent,
 * returnDisplay}), plain stdout never context and exit 2 deciding by stderr alone. Real hook processes through the engine.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHookEngine } from "../../src/hooks/engine.js";
import { buildPayload } from "../../src/hooks/payload.js";
import { BUILTIN_TOOL_HOOK_FACTS } from "../../src/tools/hook-facts.js";
import { makeWorld, type World, worldOptions } from "./helpers.js";

let w: World;
beforeEach(() => {
  w = makeWorld();
});
afterEach(() => w.cleanup());

const engine = () => createHookEngine({ ...worldOptions(w), tools: BUILTIN_TOOL_HOOK_FACTS });

/** A user-level hook on `event` that records its stdin to `<name>.json`, then runs `then`. */
function userHook(name: string, event: string, then: string, group: Record<string, unknown> = {}) {
  const log = join(w.root, `${name}.json`);
  const command = w.write(`hooks/${name}.sh`, `#!/bin/sh\ncat > "${log}"\n${then}\n`, {
    executable: true,
  });
  w.json("home/.qwen/settings.json", {
    hooks: { [event]: [{ ...group, hooks: [{ type: "command", command, timeout: 1500 }] }] },
  });
  return { seen: () => JSON.parse(readFileSync(log, "utf8")) as Record<string, unknown> };
}

describe("Qwen Code dialect", () => {
  it("a command that ran and exited non-zero fires PostToolUse, not PostToolUseFailure", async () => {
    const log = (name: string) => join(w.root, `${name}.json`);
    const hook = (name: string) => ({
      type: "command",
      command: w.write(`hooks/${name}.sh`, `#!/bin/sh\ncat > "${log(name)}"\n`, {
        executable: true,
      }),
    });
    w.json("home/.qwen/settings.json", {
      hooks: {
        PostToolUse: [{ hooks: [hook("qpost")] }],
        PostToolUseFailure: [{ hooks: [hook("qfail")] }],
      },
    });
    w.json("home/.claude/settings.json", {
      hooks: { PostToolUseFailure: [{ hooks: [hook("cfail")] }] },
    });
    const input = { command: "false" };
    const failure = buildPayload("PostToolUseFailure", {
      projectDir: w.project,
      input,
      error: "[exit code: 1]",
    });
    const ranAs = buildPayload("PostToolUse", {
      projectDir: w.project,
      input,
      toolResponse: { content: "[exit code: 1]", exitCode: 1 },
    });
    const e = await engine();
    const ran = await e.fire({ event: "PostToolUseFailure", payload: failure, ranAs });
    expect(ran.runs.map((r) => r.event).sort()).toEqual(["PostToolUse", "PostToolUseFailure"]);
    const seen = JSON.parse(readFileSync(log("qpost"), "utf8")) as Record<string, unknown>;
    expect(seen).toMatchObject({ hook_event_name: "PostToolUse", tool_name: "run_shell_command" });
    expect(() => readFileSync(log("qfail"))).toThrow();
    expect(JSON.parse(readFileSync(log("cfail"), "utf8")).hook_event_name).toBe(
      "PostToolUseFailure",
    );

    // A failure where nothing ran (no ranAs): Qwen's PostToolUseFailure hooks, as before.
    const hard = await e.fire({ event: "PostToolUseFailure", payload: failure });
    expect(hard.runs.map((r) => r.source).some((s) => s.includes(".qwen"))).toBe(true);
    expect(JSON.parse(readFileSync(log("qfail"), "utf8")).hook_event_name).toBe(
      "PostToolUseFailure",
    );
  });

  it("reads a command hook's timeout of 1000 or more as milliseconds (written for 0.15)", async () => {
    userHook("t", "PreToolUse", "exit 0");
    const hook = (await engine()).listing().hooks[0];
    expect(hook?.handler.timeout).toBe(1.5);
  });

  it("reads a command hook's timeout under 1000 as seconds, as Qwen Code 0.24 does", async () => {
    const cmd = (timeout: number) => ({ type: "command", command: "true", timeout });
    w.json("home/.qwen/settings.json", {
      hooks: {
        PreToolUse: [{ hooks: [cmd(5), cmd(999), cmd(1000), cmd(60000)] }],
        Stop: [{ hooks: [{ type: "http", url: "http://127.0.0.1:9/x", timeout: 5 }] }],
      },
    });
    const listing = (await engine()).listing();
    expect(listing.hooks.map((h) => h.handler.timeout)).toEqual([5, 999, 1, 60, 5]);
    // Neither unit is warned about: both are what Qwen Code 0.24 itself reads.
    expect(listing.allProblems.filter((p) => p.field?.endsWith("timeout"))).toEqual([]);
  });

  it("gives a command hook Qwen Code 0.24's default timeout of 600 s", async () => {
    const { qwenDialect } = await import("../../src/hooks/dialects/qwen/index.js");
    expect(qwenDialect.defaultTimeoutSec("PreToolUse", "command")).toBe(600);
  });

  it("matches tool names with an unanchored regex and ignores matchers on UserPromptSubmit", async () => {
    userHook("m", "PreToolUse", "exit 0", { matcher: "run_shell" });
    const e = await engine();
    const shell = await e.fire({
      event: "PreToolUse",
      payload: buildPayload("PreToolUse", { projectDir: w.project, input: { command: "ls" } }),
    });
    expect(shell.runs).toHaveLength(1);
    const read = await e.fire({
      event: "PreToolUse",
      payload: buildPayload("PreToolUse", {
        projectDir: w.project,
        tool: "read_file",
        input: { path: "a" },
      }),
    });
    expect(read.runs).toHaveLength(0);

    userHook("u", "UserPromptSubmit", "exit 0", { matcher: "nomatch" });
    const ups = await (await engine()).fire({
      event: "UserPromptSubmit",
      payload: buildPayload("UserPromptSubmit", { projectDir: w.project, prompt: "hi" }),
    });
    expect(ups.runs).toHaveLength(1);
  });

  it("matches Qwen 0.24's aliases (Claude's Bash, its display name Shell) only when written whole", async () => {
    const matchers = [
      "Bash",
      "Shell",
      " ShellTool ",
      "Bash|Write",
      "Edit|Bash",
      "Bas",
      "bash",
      "^Bash$",
      "Write",
      "Bash,Write",
      "run_shell",
      "^run_shell_command$",
      ".*",
      "shell",
    ];
    const log = join(w.root, "fired");
    w.json("home/.qwen/settings.json", {
      hooks: {
        PreToolUse: matchers.map((matcher, i) => ({
          matcher,
          hooks: [{ type: "command", command: `echo ${i} >> "${log}"` }],
        })),
      },
    });
    await (await engine()).fire({
      event: "PreToolUse",
      payload: buildPayload("PreToolUse", { projectDir: w.project, input: { command: "ls" } }),
    });
    const fired = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((i) => matchers[Number(i)])
      .sort();
    // "shell" is Keel's own name for the tool, written whole (a Keel extension).
    const expected = ["Bash", "Shell", " ShellTool ", "Bash|Write", "Edit|Bash", "run_shell"];
    expected.push("^run_shell_command$", ".*", "shell");
    expect(fired).toEqual(expected.sort());
  });

  it("sends Qwen 0.24's payload: file_path, timestamp, yolo, prompt_id, tool_call_id; mode on prompts", async () => {
    const r = userHook("p", "PreToolUse", "exit 0");
    const payload = buildPayload("PreToolUse", {
      projectDir: w.project,
      tool: "read_file",
      input: { path: "src/a.ts" },
      permissionMode: "bypassPermissions",
    });
    // The agent's payloads carry a prompt_id; Qwen 0.24's hooks see it too (0.15's did not).
    Object.assign(payload, { prompt_id: "p-1" });
    await (await engine()).fire({ event: "PreToolUse", payload });
    const seen = r.seen();
    expect(seen).toMatchObject({
      tool_name: "read_file",
      tool_input: { file_path: join(w.project, "src/a.ts") },
      permission_mode: "yolo",
    });
    expect(typeof seen.timestamp).toBe("string");
    expect(seen.prompt_id).toBe("p-1");
    expect(seen.tool_call_id).toBe(seen.tool_use_id);

    const u = userHook("q", "UserPromptSubmit", "exit 0");
    await (await engine()).fire({
      event: "UserPromptSubmit",
      payload: buildPayload("UserPromptSubmit", { projectDir: w.project, prompt: "hi" }),
    });
    expect(u.seen().permission_mode).toBe("default");
  });

  it("gives PostToolUse the tool result as {llmContent, returnDisplay}", async () => {
    const r = userHook("post", "PostToolUse", "exit 0");
    await (await engine()).fire({
      event: "PostToolUse",
      payload: buildPayload("PostToolUse", {
        projectDir: w.project,
        input: { command: "echo hi" },
        toolResponse: { content: "hi\n[exit code: 0]", stdout: "hi\n", stderr: "", exitCode: 0 },
      }),
    });
    expect(r.seen().tool_response).toEqual({
      llmContent: "hi\n[exit code: 0]",
      returnDisplay: "hi",
    });
  });

  it("never takes plain stdout as context", async () => {
    userHook("ctx", "UserPromptSubmit", "echo 'plain words'");
    const d = await (await engine()).fire({
      event: "UserPromptSubmit",
      payload: buildPayload("UserPromptSubmit", { projectDir: w.project, prompt: "hi" }),
    });
    expect(d.additionalContext).toBeNull();
  });

  it("on exit 2 blocks with stderr and does not read stdout JSON", async () => {
    userHook(
      "x2",
      "PreToolUse",
      `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"json says ok"}}'; echo 'stderr says no' >&2; exit 2`,
    );
    const d = await (await engine()).fire({
      event: "PreToolUse",
      payload: buildPayload("PreToolUse", { projectDir: w.project, input: { command: "ls" } }),
    });
    expect(d).toMatchObject({ decision: "block", reason: "stderr says no" });
  });
});
