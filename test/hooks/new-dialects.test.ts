/**
 * Gemini CLI, Qwen Code and Reasonix 1.x hooks run through the engine as real processes, each
 * in its own file location, with its own event and tool names, timeouts and exit codes.
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
const pre = (tool: string, input: Record<string, unknown>) =>
  buildPayload("PreToolUse", { projectDir: w.project, tool, input });

/** A hook script that records its stdin and environment, then runs `then`. */
function recorder(
  name: string,
  then: string,
): { command: string; seen: () => Record<string, unknown> } {
  const log = join(w.root, `${name}.json`);
  const command = w.write(
    `hooks/${name}.sh`,
    `#!/bin/sh\ncat > "${log}"\necho "$GEMINI_PROJECT_DIR|$QWEN_PROJECT_DIR" > "${log}.env"\n${then}\n`,
    { executable: true },
  );
  return { command, seen: () => JSON.parse(readFileSync(log, "utf8")) };
}

describe("Gemini CLI", () => {
  it("BeforeTool on run_shell_command sees Gemini's names and blocks on exit 2", async () => {
    const r = recorder("gem", "echo 'no rm' >&2; exit 2");
    w.json("project/.gemini/settings.json", {
      hooks: {
        BeforeTool: [
          {
            matcher: "run_shell_command",
            hooks: [{ type: "command", command: r.command, timeout: 5000 }],
          },
        ],
      },
    });
    const e = await engine();
    await e.trust();
    const hook = e.listing().hooks[0];
    expect(hook).toMatchObject({ event: "PreToolUse", source: { dialect: "gemini" } });
    expect(hook?.handler.timeout).toBe(5); // milliseconds in the file
    const d = await e.fire({ event: "PreToolUse", payload: pre("shell", { command: "rm -rf x" }) });
    expect(d.decision).toBe("block");
    expect(d.reason).toBe("no rm");
    expect(r.seen()).toMatchObject({
      hook_event_name: "BeforeTool",
      tool_name: "run_shell_command",
      tool_input: { command: "rm -rf x" },
    });
    expect(readFileSync(join(w.root, "gem.json.env"), "utf8").trim()).toBe(`${w.project}|`);
  });

  it.each([
    ["exit 0", "pass"],
    ["exit 1", "pass"],
    ['echo \'{"decision":"deny","reason":"json wins"}\'; exit 1', "deny"],
    ["echo nope >&2; exit 3", "block"],
  ])("%s → %s", async (then, decision) => {
    const r = recorder("gem2", then);
    w.json("home/.gemini/settings.json", {
      hooks: { BeforeTool: [{ hooks: [{ type: "command", command: r.command }] }] },
    });
    const d = await (await engine()).fire({
      event: "PreToolUse",
      payload: pre("read_file", { path: "a.txt" }),
    });
    expect(d.decision).toBe(decision);
  });

  it("hookSpecificOutput.tool_input rewrites the call, mapped back to Keel's fields", async () => {
    const r = recorder(
      "gem3",
      `echo '{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"file_path":"${w.project}/b.txt"}}}'`,
    );
    w.json("home/.gemini/settings.json", {
      hooks: {
        BeforeTool: [{ matcher: "read_file", hooks: [{ type: "command", command: r.command }] }],
      },
    });
    const d = await (await engine()).fire({
      event: "PreToolUse",
      payload: pre("read_file", { path: "a.txt" }),
    });
    expect(r.seen()).toMatchObject({ tool_input: { file_path: join(w.project, "a.txt") } });
    expect(d.updatedInput).toEqual({ path: join(w.project, "b.txt") });
  });
});

describe("Qwen Code", () => {
  it("reads .qwen/settings.json with Claude's contract and Qwen's tool names", async () => {
    const r = recorder(
      "qwen",
      `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"qwen says no"}}'`,
    );
    w.json("home/.qwen/settings.json", {
      hooks: {
        PreToolUse: [{ matcher: "edit", hooks: [{ type: "command", command: r.command }] }],
      },
    });
    const d = await (await engine()).fire({
      event: "PreToolUse",
      payload: pre("edit_file", { path: "a.txt", old_string: "a", new_string: "b" }),
    });
    expect(d).toMatchObject({ decision: "deny", reason: "qwen says no" });
    expect(r.seen()).toMatchObject({ tool_name: "edit", hook_event_name: "PreToolUse" });
    expect(readFileSync(join(w.root, "qwen.json.env"), "utf8").trim()).toBe(
      `${w.project}|${w.project}`,
    );
  });

  it("project .qwen hooks need trust like the others", async () => {
    const r = recorder("qwen2", "exit 2");
    w.json("project/.qwen/settings.json", {
      hooks: { PreToolUse: [{ hooks: [{ type: "command", command: r.command }] }] },
    });
    const e = await engine();
    expect(e.listing().hooks[0]?.trusted).toBe(false);
    const d = await e.fire({ event: "PreToolUse", payload: pre("shell", { command: "ls" }) });
    expect(d.runs).toHaveLength(0);
  });
});

describe("a timeout written in the other unit", () => {
  const timeoutWarnings = async () =>
    (await engine())
      .listing()
      .allProblems.filter((p) => p.field?.endsWith("timeout"))
      .map((p) => `${p.path.split("/").slice(-2).join("/")}: ${p.message}`);
  const file = (timeout: number) => ({
    hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "true", timeout }] }] },
  });

  it("is warned about in each file's own unit: milliseconds in .gemini, seconds in .claude, either in .qwen", async () => {
    w.json("home/.gemini/settings.json", file(5000));
    w.json("home/.qwen/settings.json", file(5));
    w.json("home/.claude/settings.json", file(5000));
    expect(await timeoutWarnings()).toEqual([
      ".claude/settings.json: timeout 5000 is in seconds here; did you mean 5 (milliseconds are only for .reasonix and .gemini files, and .qwen values of 1000 or more)?",
    ]);
  });
});

describe("Reasonix 1.x", () => {
  it("a .reasonix file matching `bash` is read as 1.x: its names; stdout JSON is not read (as 1.38)", async () => {
    const r = recorder(
      "rx1",
      `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rx1 no"}}'`,
    );
    w.json("home/.reasonix/settings.json", {
      hooks: { PreToolUse: [{ match: "bash", command: r.command, timeout: 3000 }] },
    });
    const e = await engine();
    expect(e.listing().hooks[0]).toMatchObject({
      source: { dialect: "reasonix1" },
      handler: { timeout: 3 },
    });
    const d = await e.fire({ event: "PreToolUse", payload: pre("shell", { command: "ls" }) });
    // Reasonix 1.38 runs the tool after a Claude-style JSON deny from its own format's hooks.
    expect(d.decision).toBe("pass");
    expect(r.seen()).toMatchObject({
      event: "PreToolUse",
      sessionId: expect.any(String),
      toolName: "bash",
      toolArgs: { command: "ls" },
    });
    expect(r.seen()).not.toHaveProperty("tool_name");
  });

  it("UserPromptSubmit and Stop carry the prompt's number as `turn`", async () => {
    const ups = recorder("rx1ups", "exit 0");
    const stop = recorder("rx1stop", "exit 0");
    w.json("home/.reasonix/settings.json", {
      hooks: {
        UserPromptSubmit: [{ command: ups.command }],
        Stop: [{ command: stop.command }],
      },
    });
    const e = await engine();
    const fire = (event: "UserPromptSubmit" | "Stop") =>
      e.fire({ event, payload: buildPayload(event, { projectDir: w.project, prompt: "p" }) });
    await fire("UserPromptSubmit");
    await fire("Stop");
    expect(ups.seen()).toMatchObject({ event: "UserPromptSubmit", prompt: "p", turn: 1 });
    expect(stop.seen()).toMatchObject({ event: "Stop", turn: 1 });
    await fire("UserPromptSubmit");
    expect(ups.seen()).toMatchObject({ turn: 2 });
  });

  it("a 0.x file (run_command) stays 0.x: camelCase envelope, JSON not read", async () => {
    const r = recorder("rx0", `echo '{"decision":"block"}'`);
    w.json("home/.reasonix/settings.json", {
      hooks: { PreToolUse: [{ match: "run_command", command: r.command }] },
    });
    const e = await engine();
    expect(e.listing().hooks[0]?.source.dialect).toBe("reasonix");
    const d = await e.fire({ event: "PreToolUse", payload: pre("shell", { command: "ls" }) });
    expect(d.decision).toBe("pass");
    expect(r.seen()).toMatchObject({ event: "PreToolUse", toolName: "run_command" });
  });
});

describe("docker-agent's shell", () => {
  it("runs a cagent command with $SHELL -c", async () => {
    const out = join(w.root, "shell.txt");
    const fake = w.write(
      "bin/fakeshell",
      `#!/bin/sh\necho "fakeshell $1" > "${out}"\nexec /bin/sh "$@"\n`,
      {
        executable: true,
      },
    );
    w.write(
      "home/agent.yaml",
      `agents:\n  root:\n    hooks:\n      session_start:\n        - type: command\n          command: "true"\n`,
    );
    w.json("keel/settings.json", { compat: { cagent: "~/agent.yaml" } });
    const e = await createHookEngine({
      ...worldOptions(w),
      env: { ...process.env, HOME: w.home, SHELL: fake },
    });
    await e.fire({
      event: "SessionStart",
      payload: buildPayload("SessionStart", { projectDir: w.project }),
    });
    expect(readFileSync(out, "utf8").trim()).toBe("fakeshell -c");
  });
});
