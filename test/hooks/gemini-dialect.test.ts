/**
 * The Gemini CLI dialect as Gemini CLI 0.61 measured (npm run compat:gemini): its payload (no
 * Claude-only fields, AfterAgent's prompt and prompt_response, SessionEnd "exit"), its variables, JSON
 * deciding even on exit 2, plain stdout never context, trimmed matchers, no matchers on
 * BeforeAgent. Real hook processes through the engine.
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

/** A user-level Gemini hook on `event` recording stdin and two variables, then running `then`. */
function userHook(name: string, event: string, then: string, group: Record<string, unknown> = {}) {
  const log = join(w.root, `${name}.json`);
  const command = w.write(
    `hooks/${name}.sh`,
    `#!/bin/sh\ncat > "${log}"\necho "$GEMINI_CWD|$GEMINI_SESSION_ID" > "${log}.env"\n${then}\n`,
    { executable: true },
  );
  w.json("home/.gemini/settings.json", {
    hooks: { [event]: [{ ...group, hooks: [{ type: "command", command }] }] },
  });
  return {
    seen: () => JSON.parse(readFileSync(log, "utf8")) as Record<string, unknown>,
    env: () => readFileSync(`${log}.env`, "utf8").trim(),
  };
}

const shellPre = () =>
  buildPayload("PreToolUse", {
    projectDir: w.project,
    input: { command: "ls" },
    sessionId: "s-1",
    permissionMode: "bypassPermissions",
  });

describe("Gemini CLI dialect", () => {
  it("sends Gemini's BeforeTool payload and variables, no Claude-only fields", async () => {
    const r = userHook("p", "BeforeTool", "exit 0", { matcher: " run_shell_command " });
    const d = await (await engine()).fire({ event: "PreToolUse", payload: shellPre() });
    expect(d.runs).toHaveLength(1); // the matcher is trimmed
    const seen = r.seen();
    expect(seen).toMatchObject({ hook_event_name: "BeforeTool", tool_name: "run_shell_command" });
    for (const key of ["permission_mode", "tool_use_id", "prompt_id"]) {
      expect(seen).not.toHaveProperty(key);
    }
    expect(r.env()).toBe(`${w.project}|s-1`);
  });

  it("names AfterAgent's answer prompt_response and ends a headless session with exit", async () => {
    const stop = userHook("s", "AfterAgent", "exit 0", { matcher: "nomatch" });
    const d = await (await engine()).fire({
      event: "Stop",
      payload: buildPayload("Stop", { projectDir: w.project, lastAssistantMessage: "done" }),
    });
    expect(d.runs).toHaveLength(1); // matchers are ignored on AfterAgent
    expect(stop.seen()).toMatchObject({ prompt_response: "done", stop_hook_active: false });
    expect(stop.seen()).not.toHaveProperty("last_assistant_message");

    const end = userHook("e", "SessionEnd", "exit 0");
    await (await engine()).fire({
      event: "SessionEnd",
      payload: buildPayload("SessionEnd", { projectDir: w.project, reason: "other" }),
    });
    expect(end.seen().reason).toBe("exit");
  });

  it("repeats the last prompt in AfterAgent, with every answer since it", async () => {
    const stop = userHook("s", "AfterAgent", "exit 0");
    const e = await engine();
    const fireStop = () =>
      e.fire({
        event: "Stop",
        payload: buildPayload("Stop", { projectDir: w.project, lastAssistantMessage: "done" }),
      });
    await fireStop();
    expect(stop.seen()).not.toHaveProperty("prompt");
    for (const prompt of ["first prompt", "second prompt"]) {
      await e.fire({
        event: "UserPromptSubmit",
        payload: buildPayload("UserPromptSubmit", { projectDir: w.project, prompt }),
      });
    }
    await fireStop();
    expect(stop.seen()).toMatchObject({ prompt: "second prompt", prompt_response: "done" });

    // A Stop hook made the agent go on: prompt_response holds every answer since the prompt.
    await e.fire({
      event: "Stop",
      payload: buildPayload("Stop", { projectDir: w.project, lastAssistantMessage: "more" }),
    });
    expect(stop.seen().prompt_response).toBe("done\nmore");
    await e.fire({
      event: "UserPromptSubmit",
      payload: buildPayload("UserPromptSubmit", { projectDir: w.project, prompt: "third" }),
    });
    await fireStop();
    expect(stop.seen().prompt_response).toBe("done");
  });

  it("an AfterTool block replaces the tool's result instead of adding to it", async () => {
    const post = () =>
      buildPayload("PostToolUse", {
        projectDir: w.project,
        tool: "shell",
        input: { command: "ls" },
        toolResponse: { content: "a.txt" },
      });
    userHook("b", "AfterTool", `echo 'lint failed' >&2; exit 2`);
    const d = await (await engine()).fire({ event: "PostToolUse", payload: post() });
    expect(d.updatedToolOutput).toMatch(/^Blocked after the tool ran, by hook .*: lint failed$/);
    expect(d.additionalContext).toBeNull();

    // JSON: its own additionalContext stays context; only the reason replaces the output.
    userHook(
      "j",
      "AfterTool",
      `echo '{"decision":"block","reason":"no","hookSpecificOutput":{"additionalContext":"ctx"}}'`,
    );
    const j = await (await engine()).fire({ event: "PostToolUse", payload: post() });
    expect(j.updatedToolOutput).toMatch(/: no$/);
    expect(j.additionalContext).toBe("ctx");
  });

  it("lets stdout JSON decide even on exit 2", async () => {
    userHook("x", "BeforeTool", `echo '{"decision":"allow"}'; echo 'stderr says no' >&2; exit 2`);
    const d = await (await engine()).fire({ event: "PreToolUse", payload: shellPre() });
    expect(d.decision).not.toBe("block");
  });

  it("never takes plain stdout as context", async () => {
    userHook("c", "BeforeAgent", "echo 'plain words'", { matcher: "nomatch" });
    const d = await (await engine()).fire({
      event: "UserPromptSubmit",
      payload: buildPayload("UserPromptSubmit", { projectDir: w.project, prompt: "hi" }),
    });
    expect(d.runs).toHaveLength(1);
    expect(d.additionalContext).toBeNull();
  });
});
