/**
 * Real hook scripts, written the way each ecosystem writes them, run through the engine.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHookEngine } from "../../src/hooks/engine.js";
import { buildPayload } from "../../src/hooks/payload.js";
import { makeWorld, type World, worldOptions } from "./helpers.js";

let w: World;
beforeEach(() => {
  w = makeWorld();
});
afterEach(() => w.cleanup());

async function trustedEngine() {
  const engine = await createHookEngine(worldOptions(w));
  await engine.trust();
  return engine;
}

const shell = (command: string) =>
  buildPayload("PreToolUse", { projectDir: w.project, tool: "shell", input: { command } });

describe("Claude Code hooks", () => {
  it("a python validator printing permissionDecision deny blocks the call", async () => {
    w.write(
      "project/.claude/hooks/validate.py",
      `#!/usr/bin/env python3
import json, sys
data = json.load(sys.stdin)
if data.get("tool_name") != "Bash":
    sys.exit(0)
cmd = data["tool_input"].get("command", "")
if "rm -rf" in cmd:
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "rm -rf is not allowed: " + cmd}}))
sys.exit(0)
`,
      { executable: true },
    );
    w.json("project/.claude/settings.json", {
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [
              { type: "command", command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/validate.py' },
            ],
          },
        ],
      },
    });
    const engine = await trustedEngine();
    const denied = await engine.fire({ event: "PreToolUse", payload: shell("rm -rf /") });
    expect(denied.decision).toBe("deny");
    expect(denied.reason).toBe("rm -rf is not allowed: rm -rf /");
    expect(denied.runs[0]).toMatchObject({ dialect: "claude", outcome: "block", exitCode: 0 });
    const fine = await engine.fire({ event: "PreToolUse", payload: shell("ls") });
    expect(fine.decision).toBe("pass");
  });

  it("a bash + jq PostToolUse hook sees Write with an absolute file_path and adds context", async () => {
    w.write(
      "project/.claude/hooks/after-write.sh",
      `#!/bin/bash
input=$(cat)
path=$(echo "$input" | jq -r '.tool_input.file_path')
jq -n --arg p "$path" '{hookSpecificOutput: {hookEventName: "PostToolUse", additionalContext: ("formatted " + $p)}}'
`,
      { executable: true },
    );
    w.json("project/.claude/settings.json", {
      hooks: {
        PostToolUse: [
          {
            matcher: "Write|Edit",
            hooks: [{ type: "command", command: ".claude/hooks/after-write.sh" }],
          },
        ],
      },
    });
    const engine = await trustedEngine();
    const d = await engine.fire({
      event: "PostToolUse",
      payload: buildPayload("PostToolUse", {
        projectDir: w.project,
        tool: "write_file",
        input: { path: "src/a.ts", content: "x" },
        toolResponse: "wrote 1 byte",
      }),
    });
    expect(d.additionalContext).toBe(`formatted ${w.project}/src/a.ts`);
  });

  it("exit 2 stderr reaches the model after a tool ran, and only the user on SessionStart", async () => {
    const exit2 = (text: string) => ({
      hooks: [{ type: "command", command: `echo '${text}' >&2; exit 2` }],
    });
    w.json("project/.claude/settings.json", {
      hooks: { SessionStart: [exit2("claude start")], PostToolUse: [exit2("claude post")] },
    });
    w.json("project/.keel/settings.json", { hooks: { SessionStart: [exit2("keel start")] } });
    const engine = await trustedEngine();
    const start = await engine.fire({
      event: "SessionStart",
      payload: buildPayload("SessionStart", { projectDir: w.project }),
    });
    expect(start.additionalContext).toBe("keel start");
    expect(start.runs.map((r) => [r.dialect, r.outcome, r.message])).toEqual([
      ["keel", "warn", "keel start"],
      ["claude", "warn", "claude start"],
    ]);
    const post = await engine.fire({
      event: "PostToolUse",
      payload: buildPayload("PostToolUse", {
        projectDir: w.project,
        tool: "shell",
        input: { command: "ls" },
      }),
    });
    expect(post.additionalContext).toBe("claude post");
  });

  it("a UserPromptSubmit matcher is ignored, as Claude Code ignores it; Keel files search the prompt", async () => {
    w.json("project/.claude/settings.json", {
      hooks: {
        UserPromptSubmit: [
          { matcher: "Bash", hooks: [{ type: "command", command: "echo claude-context" }] },
        ],
      },
    });
    w.json("project/.keel/settings.json", {
      hooks: {
        UserPromptSubmit: [
          { matcher: "deploy", hooks: [{ type: "command", command: "echo keel-context" }] },
        ],
      },
    });
    const engine = await trustedEngine();
    const fire = (prompt: string) =>
      engine.fire({
        event: "UserPromptSubmit",
        payload: buildPayload("UserPromptSubmit", { projectDir: w.project, prompt }),
      });
    expect((await fire("fix the tests")).additionalContext).toBe("claude-context");
    expect((await fire("please deploy it")).additionalContext).toBe(
      "keel-context\n\nclaude-context",
    );
  });
});

describe("Reasonix hooks", () => {
  it("the jq one-liner reading .toolArgs.command blocks with exit 2 and stderr", async () => {
    w.json("project/.reasonix/settings.json", {
      hooks: {
        PreToolUse: [
          {
            match: "run_command",
            command:
              "jq -r .toolArgs.command | grep -qE '^(rm -rf|sudo|curl.*\\| bash)' && { echo 'denied: dangerous command' >&2; exit 2; } || exit 0",
            description: "block rm -rf / sudo / curl|bash",
          },
        ],
      },
    });
    const engine = await trustedEngine();
    const d = await engine.fire({ event: "PreToolUse", payload: shell("sudo rm x") });
    expect(d.decision).toBe("block");
    expect(d.reason).toBe("denied: dangerous command");
    expect((await engine.fire({ event: "PreToolUse", payload: shell("ls") })).decision).toBe(
      "pass",
    );
  });

  it("the seed's `match: shell` also fires (Keel's name), and Stop exit 2 is only a warning", async () => {
    w.json("project/.reasonix/settings.json", {
      hooks: {
        PreToolUse: [{ match: "shell", command: "exit 2" }],
        Stop: [{ command: "jq -r .lastAssistantText >&2; exit 2" }],
      },
    });
    const engine = await trustedEngine();
    expect((await engine.fire({ event: "PreToolUse", payload: shell("ls") })).decision).toBe(
      "block",
    );
    const stop = await engine.fire({
      event: "Stop",
      payload: buildPayload("Stop", { projectDir: w.project, lastAssistantMessage: "all done" }),
    });
    expect(stop.decision).toBe("pass");
    expect(stop.runs[0]).toMatchObject({ outcome: "warn", stderr: "all done\n" });
  });
});

describe("tutorial .hooks.json hooks", () => {
  it("exit 1 blocks with stderr; exit 2 injects stderr; env vars carry the call", async () => {
    w.write(
      "project/hooks/guard.sh",
      `#!/bin/bash
if [[ "$HOOK_TOOL_NAME" == "bash" && "$HOOK_TOOL_INPUT" == *"rm -rf"* ]]; then
  echo "Blocked dangerous command" >&2
  exit 1
fi
exit 0
`,
      { executable: true },
    );
    w.json("project/.hooks.json", {
      hooks: {
        PreToolUse: [
          { matcher: "bash", command: "./hooks/guard.sh" },
          { matcher: "*", command: 'echo "Checked $HOOK_EVENT for $HOOK_TOOL_NAME" >&2; exit 2' },
        ],
      },
    });
    const engine = await trustedEngine();
    const blocked = await engine.fire({ event: "PreToolUse", payload: shell("rm -rf build") });
    expect(blocked.decision).toBe("block");
    expect(blocked.reason).toBe("Blocked dangerous command");
    const ok = await engine.fire({ event: "PreToolUse", payload: shell("ls") });
    expect(ok.decision).toBe("pass");
    expect(ok.additionalContext).toBe("Checked PreToolUse for bash");
  });
});

describe("cagent hooks", () => {
  it("a node hook returning snake_case updated_input is mapped back to Keel's input", async () => {
    w.write(
      "project/scripts/rewrite.js",
      `let s = "";
process.stdin.on("data", (c) => (s += c));
process.stdin.on("end", () => {
  const input = JSON.parse(s);
  if (input.hook_event_name !== "pre_tool_use" || input.tool_name !== "shell") process.exit(0);
  const cmd = input.tool_input.cmd.replace(/^ls$/, "ls -la");
  process.stdout.write(JSON.stringify({
    hook_specific_output: {
      hook_event_name: "pre_tool_use",
      permission_decision: "allow",
      permission_decision_reason: "rewritten",
      updated_input: { cmd },
    },
  }));
});
`,
    );
    w.write(
      "project/agent.yaml",
      `agents:
  root:
    model: openai/gpt-4o
    instruction: You are a helpful assistant.
    hooks:
      pre_tool_use:
        - matcher: "shell|edit_file"
          hooks:
            - type: command
              command: "node scripts/rewrite.js"
              timeout: 30
`,
    );
    w.json("project/.keel/settings.json", { compat: { cagent: "agent.yaml" } });
    const engine = await trustedEngine();
    const d = await engine.fire({ event: "PreToolUse", payload: shell("ls") });
    expect(d.decision).toBe("allow");
    expect(d.updatedInput).toEqual({ command: "ls -la" });
    expect(d.runs[0]?.dialect).toBe("cagent");
  });

  it("the cagent validation script (exit 2 + JSON block) blocks", async () => {
    w.write(
      "project/scripts/validate-command.sh",
      `#!/bin/bash
INPUT=$(cat)
TOOL_NAME=$(echo "$INPUT" | jq -r '.tool_name')
CMD=$(echo "$INPUT" | jq -r '.tool_input.cmd // empty')
if [[ "$TOOL_NAME" == "shell" ]]; then
  if [[ "$CMD" =~ ^sudo ]] || [[ "$CMD" =~ rm.*-rf ]]; then
    echo '{"decision": "block", "reason": "Dangerous command blocked by policy"}'
    exit 2
  fi
fi
echo '{"decision": "allow"}'
exit 0
`,
      { executable: true },
    );
    w.write(
      "project/agent.yaml",
      `agents:
  root:
    hooks:
      pre_tool_use:
        - matcher: "shell|edit_file"
          hooks:
            - type: command
              command: "./scripts/validate-command.sh"
`,
    );
    w.json("project/.keel/settings.json", { compat: { cagent: "agent.yaml" } });
    const engine = await trustedEngine();
    const d = await engine.fire({ event: "PreToolUse", payload: shell("sudo reboot") });
    expect(d.decision).toBe("block");
    expect(d.reason).toBe("Dangerous command blocked by policy");
    expect((await engine.fire({ event: "PreToolUse", payload: shell("ls") })).decision).toBe(
      "allow",
    );
  });
});

describe("Keel native hooks", () => {
  it('seed-004 style: lint --file "$tool_input_path" with a condition, payload never in the command line', async () => {
    w.write(
      "project/bin/lint-check",
      `#!/bin/bash
echo "linted $1" >&2
[[ "$1" == *.ts ]] || exit 0
grep -q "any" "$1" 2>/dev/null && { echo "no any in $1" >&2; exit 2; }
exit 0
`,
      { executable: true },
    );
    w.write("project/src/a.ts", "let x: any;");
    w.json("project/.keel/settings.json", {
      hooks: {
        PostToolUse: [
          {
            matcher: "Write",
            mode: "command",
            command: 'bin/lint-check "$tool_input_path"',
            condition: "Write(src/**/*.ts)",
            timeout: 10,
          },
        ],
      },
    });
    const engine = await trustedEngine();
    const post = (path: string) =>
      buildPayload("PostToolUse", {
        projectDir: w.project,
        tool: "write_file",
        input: { path: `${path}`, content: "" },
        toolResponse: "ok",
      });
    const d = await engine.fire({ event: "PostToolUse", payload: post("src/a.ts") });
    expect(d.additionalContext).toBe("linted src/a.ts\nno any in src/a.ts");
    expect(d.runs[0]?.outcome).toBe("warn");
    // A path with shell metacharacters stays data.
    const evil = await engine.fire({
      event: "PostToolUse",
      payload: post("src/$(touch pwned).ts"),
    });
    expect(evil.runs[0]?.stderr).toBe("linted src/$(touch pwned).ts\n");
    const notMatching = await engine.fire({ event: "PostToolUse", payload: post("docs/a.md") });
    expect(notMatching.runs).toEqual([]);
  });

  it("UserPromptSubmit plain stdout becomes context; SessionStart matcher filters on source", async () => {
    w.json("project/.keel/settings.json", {
      hooks: {
        UserPromptSubmit: [{ hooks: [{ type: "command", command: "echo 'branch: main'" }] }],
        SessionStart: [
          { matcher: "resume", hooks: [{ type: "command", command: "echo resumed" }] },
        ],
      },
    });
    const engine = await trustedEngine();
    const d = await engine.fire({
      event: "UserPromptSubmit",
      payload: buildPayload("UserPromptSubmit", { projectDir: w.project, prompt: "hi" }),
    });
    expect(d.additionalContext).toBe("branch: main");
    const startup = await engine.fire({
      event: "SessionStart",
      payload: buildPayload("SessionStart", { projectDir: w.project, source: "startup" }),
    });
    expect(startup.runs).toEqual([]);
    const resume = await engine.fire({
      event: "SessionStart",
      payload: buildPayload("SessionStart", { projectDir: w.project, source: "resume" }),
    });
    expect(resume.additionalContext).toBe("resumed");
  });
});
