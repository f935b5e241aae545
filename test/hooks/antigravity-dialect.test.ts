/**
 * The Antigravity dialect: `.agents/hooks.json` and `~/.gemini/config/hooks.json` (named hooks
 * with their own events), read by Antigravity's rules and run through the engine as real
 * processes with its camelCase payload and its JSON-only answers. The fixtures are written from
 * the published format (docs/hooks.md "Antigravity"), not copied.
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
const pre = (tool: string, input: Record<string, unknown>, id = "toolu_1") =>
  buildPayload("PreToolUse", { projectDir: w.project, tool, input, toolUseId: id });

/** A hook script that records its stdin, then runs `then`. */
function recorder(name: string, then = "true") {
  const log = join(w.root, `${name}.json`);
  const command = w.write(`hooks/${name}.sh`, `#!/bin/sh\ncat > "${log}"\n${then}\n`, {
    executable: true,
  });
  return { command, seen: () => JSON.parse(readFileSync(log, "utf8")) as Record<string, unknown> };
}

const USER_FILE = "home/.gemini/config/hooks.json";

describe("reading Antigravity's hooks.json", () => {
  it("reads named hooks: tool groups, flat lists, case-insensitive events, enabled:false", async () => {
    w.json(USER_FILE, {
      "shell-audit": {
        PreToolUse: [
          { matcher: "run_command", hooks: [{ type: "command", command: "echo a", timeout: 5 }] },
        ],
        posttooluse: [{ matcher: "*", hooks: [{ command: "echo b" }] }],
      },
      "lint-on-stop": { Stop: [{ command: "echo c" }] },
      reminder: { PreInvocation: [{ type: "command", command: "echo d" }] },
      "switched-off": {
        enabled: false,
        PreToolUse: [{ matcher: "", hooks: [{ command: "echo e" }] }],
      },
    });
    const l = (await engine()).listing();
    expect(l.hooks.map((h) => [h.event, h.source.dialect, h.handler.timeout ?? null])).toEqual([
      ["PreToolUse", "antigravity", 5],
      ["PostToolUse", "antigravity", null],
      ["Stop", "antigravity", null],
      ["UserPromptSubmit", "antigravity", null],
    ]);
    expect(l.hooks[0]?.handler).toMatchObject({ name: "shell-audit" });
    expect(l.allProblems).toEqual([]);
  });

  it("a fractional timeout voids the whole file, as agy does, naming the field", async () => {
    w.json(USER_FILE, {
      good: { Stop: [{ command: "echo ok" }] },
      bad: { PreToolUse: [{ matcher: "run_command", hooks: [{ command: "x", timeout: 1.5 }] }] },
    });
    const l = (await engine()).listing();
    expect(l.hooks).toHaveLength(0);
    const p = l.allProblems.find((x) => x.severity === "error");
    expect(p?.message).toMatch(/bad\.PreToolUse\[0\]\.hooks\[0\]\.timeout: must be a whole number/);
    expect(p?.message).toMatch(/loads no hook from this file/);
  });

  it("a top-level enabled, a bad type or a command hook with a prompt is an error", async () => {
    for (const bad of [
      { enabled: false, a: { Stop: [{ command: "x" }] } },
      { a: { Stop: [{ type: "COMMAND", command: "x" }] } },
      { a: { Stop: [{ command: "x", prompt: "y" }] } },
    ]) {
      w.json(USER_FILE, bad);
      const l = (await engine()).listing();
      expect(l.hooks).toHaveLength(0);
      expect(l.allProblems.some((p) => p.severity === "error")).toBe(true);
    }
  });

  it("discarded keys (env, cwd) warn and take no effect; unknown events never run", async () => {
    const r = recorder("env");
    w.json(USER_FILE, {
      a: {
        PreToolUse: [
          {
            matcher: "",
            hooks: [{ command: `X=$FROM_ENV; ${r.command}`, env: { FROM_ENV: "set" } }],
          },
        ],
        SessionEnd: [{ command: "echo never" }],
        PostInvocation: [{ command: "echo never" }],
      },
    });
    const e = await engine();
    const messages = e
      .listing()
      .allProblems.map((p) => p.message)
      .join("\n");
    expect(messages).toMatch(/discards "env"/);
    expect(messages).toMatch(/no event "SessionEnd"/);
    expect(messages).toMatch(/PostInvocation hooks never run in Keel/);
    expect(e.listing().hooks).toHaveLength(1);
    expect(e.listing().hooks[0]?.handler).not.toHaveProperty("env");
  });

  it("project .agents/hooks.json needs trust like every project source", async () => {
    w.json("project/.agents/hooks.json", {
      guard: {
        PreToolUse: [
          {
            matcher: "run_command",
            hooks: [{ command: `echo '{"decision":"deny","reason":"no"}'` }],
          },
        ],
      },
    });
    const e = await engine();
    expect(e.listing().hooks[0]?.trusted).toBe(false);
    const d = await e.fire({ event: "PreToolUse", payload: pre("shell", { command: "ls" }) });
    expect(d.runs).toHaveLength(0);
    await e.trust();
    const d2 = await e.fire({ event: "PreToolUse", payload: pre("shell", { command: "ls" }) });
    expect(d2.decision).toBe("deny");
  });
});

describe("the payload Antigravity's hooks read", () => {
  it("PreToolUse: toolCall {name, args} with PascalCase args, stepIdx and the common fields", async () => {
    const r = recorder("pre");
    w.json(USER_FILE, {
      a: { PreToolUse: [{ matcher: "run_command", hooks: [{ command: r.command }] }] },
    });
    await (await engine()).fire({
      event: "PreToolUse",
      payload: { ...pre("shell", { command: "npm test" }), session_id: "conv-1" },
    });
    expect(r.seen()).toEqual({
      toolCall: { name: "run_command", args: { CommandLine: "npm test", Cwd: w.project } },
      stepIdx: 0,
      conversationId: "conv-1",
      workspacePaths: [w.project],
      transcriptPath: "",
      artifactDirectoryPath: "",
    });
  });

  it("write_to_file and replace_file_content carry absolute TargetFile and their contents", async () => {
    const r = recorder("edit");
    w.json(USER_FILE, {
      a: {
        PreToolUse: [
          { matcher: "^(write_to_file|replace_file_content)$", hooks: [{ command: r.command }] },
        ],
      },
    });
    const e = await engine();
    await e.fire({
      event: "PreToolUse",
      payload: pre("edit_file", { path: "src/a.ts", old_string: "x", new_string: "y" }),
    });
    expect(r.seen().toolCall).toEqual({
      name: "replace_file_content",
      args: {
        TargetFile: join(w.project, "src/a.ts"),
        TargetContent: "x",
        ReplacementContent: "y",
      },
    });
    const shell = await e.fire({ event: "PreToolUse", payload: pre("shell", { command: "ls" }) });
    expect(shell.runs).toHaveLength(0);
  });

  it("PostToolUse of a failed command carries error 'exit status N' and the call's step", async () => {
    const r = recorder("post");
    w.json(USER_FILE, { a: { PostToolUse: [{ matcher: "", hooks: [{ command: r.command }] }] } });
    const e = await engine();
    await e.fire({
      event: "UserPromptSubmit",
      payload: buildPayload("UserPromptSubmit", { projectDir: w.project, prompt: "go" }),
    });
    await e.fire({ event: "PreToolUse", payload: pre("shell", { command: "false" }, "call-a") });
    await e.fire({
      event: "PostToolUse",
      payload: {
        ...buildPayload("PostToolUse", {
          projectDir: w.project,
          tool: "shell",
          input: { command: "false" },
          toolUseId: "call-a",
        }),
        tool_response: { content: "[exit code: 1]", isError: true, details: { exitCode: 1 } },
      },
    });
    expect(r.seen()).toMatchObject({ stepIdx: 1, error: "exit status 1" });
  });
});

describe("what Antigravity's hooks answer", () => {
  const answer = (json: string) => `printf '%s' '${json}'`;

  it("PreToolUse decision deny blocks with its reason; allow and ask are decisions too", async () => {
    for (const [json, want] of [
      ['{"decision":"deny","reason":"not here"}', "deny"],
      ['{"decision":"allow"}', "allow"],
      ['{"decision":"force_ask"}', "ask"],
    ] as const) {
      w.json(USER_FILE, {
        a: { PreToolUse: [{ matcher: "", hooks: [{ command: answer(json) }] }] },
      });
      const d = await (await engine()).fire({
        event: "PreToolUse",
        payload: pre("shell", { command: "rm -rf x" }),
      });
      expect(d.decision).toBe(want);
      if (want === "deny") expect(d.reason).toMatch(/not here/);
    }
  });

  it("exit 2 is not a deny in Antigravity: the call goes on with a warning", async () => {
    w.json(USER_FILE, {
      a: { PreToolUse: [{ matcher: "", hooks: [{ command: "echo no >&2; exit 2" }] }] },
    });
    const d = await (await engine()).fire({
      event: "PreToolUse",
      payload: pre("shell", { command: "ls" }),
    });
    expect(d.decision).not.toBe("deny");
    expect(d.decision).not.toBe("block");
    expect(d.runs[0]?.outcome).toBe("warn");
  });

  it("Stop decision continue sends the agent on; PreInvocation injectSteps become context", async () => {
    w.json(USER_FILE, {
      a: {
        Stop: [{ command: answer('{"decision":"continue","reason":"tests still fail"}') }],
        PreInvocation: [
          {
            command: answer(
              '{"injectSteps":[{"userMessage":"times are UTC"},{"ephemeralMessage":"be brief"}]}',
            ),
          },
        ],
      },
    });
    const e = await engine();
    const stop = await e.fire({
      event: "Stop",
      payload: buildPayload("Stop", { projectDir: w.project }),
    });
    expect(stop.decision).toBe("block");
    expect(stop.reason).toMatch(/tests still fail/);
    const prompt = await e.fire({
      event: "UserPromptSubmit",
      payload: buildPayload("UserPromptSubmit", { projectDir: w.project, prompt: "hi" }),
    });
    expect(prompt.additionalContext).toMatch(/times are UTC[\s\S]*be brief/);
  });
});
