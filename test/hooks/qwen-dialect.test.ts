/**
 * The Qwen Code dialect as Qwen Code 0.24.4 measured (npm run compat:qwen): command timeouts in
 * seconds (1000 or more still milliseconds), matchers exact on Qwen's tool aliases else
 * unanchored regexes, no matchers on UserPromptSubmit, Qwen's payload (timestamp, approval-mode
 * names, {llmContent, returnDisplay}, prompt ids), plain stdout context only on prompt events,
 * PostToolUseFailure for a failed command and exit 2 deciding by stderr alone. Real hook
 * processes through the engine.
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
  it("a failed command fires PostToolUseFailure (0.24), grep's exit 1 PostToolUse", async () => {
    const log = (name: string) => join(w.root, `${name}.json`);
    const hook = (name: string) => ({
      type: "command",
      command: w.write(`hooks/${name}.sh`, `#!/bin/sh\ncat >> "${log(name)}"\n`, {
        executable: true,
      }),
    });
    w.json("home/.qwen/settings.json", {
      hooks: {
        PostToolUse: [{ hooks: [hook("qpost")] }],
        PostToolUseFailure: [{ hooks: [hook("qfail")] }],
      },
    });
    const read = (name: string) =>
      readFileSync(log(name), "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    const fireFailed = async (command: string, exitCode: number) => {
      const input = { command };
      const failure = buildPayload("PostToolUseFailure", {
        projectDir: w.project,
        input,
        error: `[exit code: ${exitCode}]`,
      });
      const ranAs = buildPayload("PostToolUse", {
        projectDir: w.project,
        input,
        toolResponse: { content: `[exit code: ${exitCode}]`, exitCode },
      });
      const e = await engine();
      return e.fire({ event: "PostToolUseFailure", payload: failure, ranAs });
    };
    const failed = await fireFailed("false", 1);
    expect(failed.runs.map((r) => r.event)).toEqual(["PostToolUseFailure"]);
    expect(read("qfail")[0]).toMatchObject({
      hook_event_name: "PostToolUseFailure",
      tool_name: "run_shell_command",
    });
    expect(() => readFileSync(log("qpost"))).toThrow();

    // Exit 1 from grep (also as a pipeline's last stage) is "no match" to Qwen: PostToolUse.
    for (const command of ["grep nothing a.txt", "cat a.txt | grep -q nothing"]) {
      const ran = await fireFailed(command, 1);
      expect(ran.runs.map((r) => r.event)).toEqual(["PostToolUse"]);
    }
    expect(read("qpost").map((p) => p.hook_event_name)).toEqual(["PostToolUse", "PostToolUse"]);
    // grep's exit 2 (an error), and exit 1 after `&&`, are failures again.
    for (const command of ["grep nothing a.txt", "cd x && grep nothing a.txt"]) {
      const code = command.startsWith("cd") ? 1 : 2;
      const ran = await fireFailed(command, code);
      expect(ran.runs.map((r) => r.event)).toEqual(["PostToolUseFailure"]);
    }
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
    // Qwen's form: <session_id>########<n>, n from 0 for the session's first prompt.
    expect(seen.prompt_id).toBe(`${payload.session_id}########0`);
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

  it("takes plain stdout as context on UserPromptSubmit (0.24), escaped, never on PreToolUse", async () => {
    userHook("ctx", "UserPromptSubmit", "printf '\\033[31mplain <b>words</b>\\033[0m\\n'");
    const d = await (await engine()).fire({
      event: "UserPromptSubmit",
      payload: buildPayload("UserPromptSubmit", { projectDir: w.project, prompt: "hi" }),
    });
    expect(d.additionalContext).toBe("plain &lt;b&gt;words&lt;/b&gt;");

    userHook("pre", "PreToolUse", "echo 'plain words'");
    const pre = await (await engine()).fire({
      event: "PreToolUse",
      payload: buildPayload("PreToolUse", { projectDir: w.project, input: { command: "ls" } }),
    });
    expect(pre.additionalContext).toBeNull();
  });

  it("numbers prompt ids as Qwen does, in the payload and QWEN_CODE_PROMPT_ID", async () => {
    const log = join(w.root, "ids");
    userHook("ids", "PreToolUse", `echo "$QWEN_CODE_PROMPT_ID" >> "${log}"`);
    const e = await engine();
    const fire = async (promptId: string) => {
      const payload = buildPayload("PreToolUse", {
        projectDir: w.project,
        input: { command: "ls" },
      });
      Object.assign(payload, { prompt_id: promptId });
      await e.fire({ event: "PreToolUse", payload });
      return payload.session_id;
    };
    await fire("a");
    await fire("a");
    const session = await fire("b");
    expect(readFileSync(log, "utf8").trim().split("\n")).toEqual([
      `${session}########0`,
      `${session}########0`,
      `${session}########1`,
    ]);
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
