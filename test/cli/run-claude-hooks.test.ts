/**
 * Claude Code hooks through `keel run` see what Claude Code gives them (measured on the real
 * binary by `npm run compat:claude`): its tool_response shapes, its env, a Claude-format
 * transcript, CLAUDE_ENV_FILE, and the model gets their context in Claude's words.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import {
  commandHook,
  hookScript,
  keel,
  sentMessages,
  type World,
  worldPerTest,
} from "../agent/harness.js";

const newWorld = worldPerTest();

/** User-level Claude Code settings (`~/.claude/settings.json`: trusted). */
function writeClaudeSettings(world: World, hooks: Record<string, unknown[]>): void {
  mkdirSync(join(world.root, ".claude"), { recursive: true });
  writeFileSync(join(world.root, ".claude", "settings.json"), JSON.stringify({ hooks }));
}

/** A hook that appends its payload (one JSON line) to `<root>/<name>.jsonl`. */
function recorder(world: World, name: string, extra = ""): string {
  return hookScript(world, `${name}.sh`, `cat >> "${join(world.root, `${name}.jsonl`)}"\n${extra}`);
}

function recorded(world: World, name: string): Record<string, unknown>[] {
  return readFileSync(join(world.root, `${name}.jsonl`), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("keel run: Claude Code hooks as Claude Code runs them", () => {
  it("tool_response shapes of Write, Edit and Bash, and Edit's replace_all:false", async () => {
    const world = await newWorld(
      script(
        reply().tool("write_file", { path: "a.txt", content: "one\ntwo\n" }),
        reply().tool("edit_file", { path: "a.txt", old_string: "two", new_string: "three" }),
        reply().tool("shell", { command: "echo hi" }),
        reply().text("done"),
      ),
    );
    writeClaudeSettings(world, { PostToolUse: [commandHook(recorder(world, "post"), "*")] });
    const r = await keel(world, ["run", "go", "--yes"]);
    expect(r.code).toBe(0);
    const [write, edit, bash] = recorded(world, "post");
    const file = join(world.project, "a.txt");
    expect(write?.tool_response).toEqual({
      type: "create",
      filePath: file,
      content: "one\ntwo\n",
      structuredPatch: [],
      originalFile: null,
      userModified: false,
    });
    expect(edit?.tool_input).toEqual({
      file_path: file,
      old_string: "two",
      new_string: "three",
      replace_all: false,
    });
    expect(edit?.tool_response).toEqual({
      filePath: file,
      oldString: "two",
      newString: "three",
      originalFile: "one\ntwo\n",
      structuredPatch: [
        { oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: [" one", "-two", "+three"] },
      ],
      userModified: false,
      replaceAll: false,
    });
    expect(bash?.tool_response).toEqual({
      stdout: "hi",
      stderr: "",
      interrupted: false,
      isImage: false,
      noOutputExpected: false,
    });
  });

  it("PostToolUseFailure error is `Exit code N` then the output; env carries CLAUDECODE", async () => {
    const world = await newWorld(
      script(reply().tool("shell", { command: "echo oops; exit 3" }), reply().text("done")),
    );
    const envLog = join(world.root, "env.txt");
    const hook = recorder(
      world,
      "fail",
      `echo "$CLAUDECODE $CLAUDE_CODE_ENTRYPOINT $CLAUDE_CODE_SESSION_ID $CLAUDE_CODE_CHILD_SESSION $CLAUDE_CODE_SESSION_ATTENDED $CLAUDE_PID" > "${envLog}"`,
    );
    writeClaudeSettings(world, { PostToolUseFailure: [commandHook(hook, "Bash")] });
    await keel(world, ["run", "go", "--yes"]);
    const [failure] = recorded(world, "fail");
    expect(failure?.error).toBe("Exit code 3\noops");
    // Claude Code 2.1.332's variables: a child of the session, not attended headless, the agent's pid.
    expect(readFileSync(envLog, "utf8").trim()).toBe(
      `1 sdk-cli ${failure?.session_id} 1 0 ${process.pid}`,
    );
  });

  it("SessionStart exports in CLAUDE_ENV_FILE reach later shell calls; no permission_mode there", async () => {
    const world = await newWorld(
      script(reply().tool("shell", { command: 'echo "v=$COMPAT_V" > v.txt' }), reply().text("ok")),
    );
    const hook = recorder(world, "start", `echo "export COMPAT_V='a b'" >> "$CLAUDE_ENV_FILE"`);
    writeClaudeSettings(world, { SessionStart: [commandHook(hook)] });
    await keel(world, ["run", "go", "--yes"]);
    expect(readFileSync(join(world.project, "v.txt"), "utf8")).toBe("v=a b\n");
    const [start] = recorded(world, "start");
    expect(start).not.toHaveProperty("permission_mode");
    expect(start).not.toHaveProperty("prompt_id");
  });

  it("a Stop hook parsing transcript_path finds the answer it is judging", async () => {
    const world = await newWorld(
      script(reply().tool("shell", { command: "echo hi" }), reply().text("the final words")),
    );
    const last = join(world.root, "last.txt");
    const hook = recorder(
      world,
      "stop",
      `jq -r 'select(.type=="assistant") | .message.content[] | select(.type=="text") | .text' "$(tail -1 "${join(world.root, "stop.jsonl")}" | jq -r .transcript_path)" | tail -1 > "${last}"`,
    );
    writeClaudeSettings(world, { Stop: [commandHook(hook)] });
    const r = await keel(world, ["run", "go", "--yes"]);
    expect(r.code).toBe(0);
    expect(readFileSync(last, "utf8")).toBe("the final words\n");
    const [stop] = recorded(world, "stop");
    expect(stop?.transcript_path).toContain(join(world.home, "claude-projects"));
    expect(stop).toMatchObject({ background_tasks: [], session_crons: [] });
    expect(typeof stop?.prompt_id).toBe("string");
    const lines = readFileSync(String(stop?.transcript_path), "utf8").trim().split("\n");
    const toolUse = lines.map((l) => JSON.parse(l)).find((e) => e.type === "assistant");
    expect(toolUse.message.content[0]).toMatchObject({
      type: "tool_use",
      name: "Bash",
      input: { command: "echo hi" },
    });
  });

  it("PreToolUse context and exit-2 feedback reach the model in Claude's words", async () => {
    const world = await newWorld(
      script(
        reply().tool("shell", { command: "echo ran" }),
        reply().tool("shell", { command: "rm -rf /" }),
        reply().text("ok"),
      ),
    );
    const hook = hookScript(
      world,
      "pre.sh",
      `if grep -q 'rm -rf'; then echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'; echo 'no rm' >&2; exit 2; fi
echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"be careful"}}'`,
    );
    writeClaudeSettings(world, { PreToolUse: [commandHook(hook, "Bash")] });
    await keel(world, ["run", "go", "--yes"]);
    const first = world.sim.requests[1]?.messages.at(-1)?.content;
    expect(first).toContain("PreToolUse:shell hook additional context: be careful");
    const second = world.sim.requests[2]?.messages.at(-1)?.content;
    // Exit 2 ignores the JSON allow on stdout, as Claude Code does; the message is stderr.
    expect(second).toBe(`PreToolUse:shell hook error: [${hook}]: no rm\n`);
  });

  it("a JSON deny reads as Claude 2.1.332's hook error; continue:false on the prompt says why", async () => {
    const world = await newWorld(
      script(reply().tool("shell", { command: "echo ran" }), reply().text("ok")),
    );
    const deny = hookScript(
      world,
      "deny.sh",
      `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"not this one"}}'`,
    );
    writeClaudeSettings(world, { PreToolUse: [commandHook(deny, "Bash")] });
    await keel(world, ["run", "go", "--mode", "bypassPermissions"]);
    const result = world.sim.requests[1]?.messages.at(-1)?.content;
    expect(result).toBe("PreToolUse:shell hook error: not this one");

    const stopped = await newWorld(script(reply().text("never asked")));
    const stop = hookScript(
      stopped,
      "stop.sh",
      `echo '{"continue":false,"stopReason":"not today"}'`,
    );
    writeClaudeSettings(stopped, { UserPromptSubmit: [commandHook(stop)] });
    const run = await keel(stopped, [
      "run",
      "hello",
      "--mode",
      "bypassPermissions",
      "--output-format",
      "json",
    ]);
    expect(JSON.parse(run.stdout).result).toBe("Operation stopped by hook: not today");
    expect(stopped.sim.requests).toHaveLength(0);
  });

  // Claude Code 2.1.332 sends hook context as a message of its own after the tool results or the
  // prompt (a `system` message; Keel: a `user` message of <hook-context> blocks, docs/hooks.md).
  it("hook context comes in a message of its own after the results and the prompt", async () => {
    const world = await newWorld(
      script(
        reply().tool("shell", { command: "echo one" }).tool("shell", { command: "echo two" }),
        reply().text("ok"),
      ),
    );
    const ctx = (event: string, text: string) =>
      hookScript(
        world,
        `${event}.sh`,
        `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"${event}","additionalContext":"${text}"}}'`,
      );
    writeClaudeSettings(world, {
      SessionStart: [commandHook(ctx("SessionStart", "start ctx"))],
      UserPromptSubmit: [commandHook(ctx("UserPromptSubmit", "ups ctx"))],
      PreToolUse: [commandHook(ctx("PreToolUse", "pre ctx"), "Bash")],
      PostToolUse: [commandHook(ctx("PostToolUse", "post ctx"), "Bash")],
    });
    const r = await keel(world, ["run", "go", "--mode", "bypassPermissions"]);
    expect(r.code).toBe(0);
    const first = world.sim.requests[0]?.messages ?? [];
    // The prompt first, then the context (SessionStart's, then UserPromptSubmit's) in a message
    // of its own — sent joined to the prompt's (DeepSeek rejects two user messages in a row).
    expect(first.slice(1)).toEqual([
      {
        role: "user",
        content:
          'go\n\n<hook-context event="SessionStart">\nSessionStart hook additional context: start ctx\n</hook-context>\n\n<hook-context event="UserPromptSubmit">\nUserPromptSubmit hook additional context: ups ctx\n</hook-context>',
      },
    ]);
    const second = world.sim.requests[1]?.messages ?? [];
    const after = second.slice(first.length + 1);
    // Both results right after the calls, untouched by hooks; then one message with the context
    // of both calls, each call's PreToolUse before its PostToolUse.
    expect(after.map((m) => m.role)).toEqual(["tool", "tool", "user"]);
    expect(after[0]?.content).not.toContain("hook");
    expect(after[1]?.content).not.toContain("hook");
    const pair =
      '<hook-context event="PreToolUse">\nPreToolUse:shell hook additional context: pre ctx\n</hook-context>\n\n<hook-context event="PostToolUse">\nPostToolUse:shell hook additional context: post ctx\n</hook-context>';
    expect(after[2]?.content).toBe(`${pair}\n\n${pair}`);
    // Appended: every message of the first request is sent again byte for byte.
    expect(sentMessages(world, 1).slice(0, first.length)).toEqual(sentMessages(world, 0));
  });

  it("a PreToolUse ask in bypass mode headless: not run, the reason, no PermissionRequest", async () => {
    const world = await newWorld(
      script(reply().tool("shell", { command: "echo ran > out.txt" }), reply().text("ok")),
    );
    const ask = hookScript(
      world,
      "ask.sh",
      `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"please confirm"}}'`,
    );
    writeClaudeSettings(world, {
      PreToolUse: [commandHook(ask, "Bash")],
      PermissionRequest: [commandHook(recorder(world, "perm"), "Bash")],
    });
    await keel(world, ["run", "go", "--mode", "bypassPermissions"]);
    expect(world.sim.requests[1]?.messages.at(-1)?.content).toBe("please confirm");
    expect(() => readFileSync(join(world.project, "out.txt"))).toThrow();
    expect(() => recorded(world, "perm")).toThrow();
  });

  it("PermissionRequest gets permission_suggestions: what 'allow always' would remember, Claude's names", async () => {
    const world = await newWorld(
      script(
        reply().tool("shell", { command: "echo ran > out.txt" }),
        reply().tool("write_file", { path: "b.txt", content: "b" }),
        reply().text("ok"),
      ),
    );
    const allow = `echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}'`;
    writeClaudeSettings(world, {
      PermissionRequest: [commandHook(recorder(world, "perm", allow), "Bash|Write")],
    });
    // No --yes: the calls need approval, and the hook gives it.
    const r = await keel(world, ["run", "go"]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(world.project, "out.txt"), "utf8")).toBe("ran\n");
    const [bash, write] = recorded(world, "perm");
    // Keel remembers one exact command, as the prompt's label says (allowScope).
    expect(bash?.permission_suggestions).toEqual([
      {
        type: "addRules",
        rules: [{ toolName: "Bash", ruleContent: "echo ran > out.txt" }],
        behavior: "allow",
        destination: "session",
      },
    ]);
    // A write: Keel's "allow always" remembers the whole tool for the session.
    expect(write?.tool_name).toBe("Write");
    expect(write?.permission_suggestions).toEqual([
      {
        type: "addRules",
        rules: [{ toolName: "Write" }],
        behavior: "allow",
        destination: "session",
      },
    ]);
  });

  it('an exec-form guard ({command, args}) that fails with onFailure "block" stops the call', async () => {
    const world = await newWorld(
      script(reply().tool("shell", { command: "echo x > out.txt" }), reply().text("ok")),
    );
    const log = join(world.root, "argv.txt");
    // The program is `command`; `args` are its arguments, given as they are (no shell).
    const hook = hookScript(world, "guard.sh", `printf '%s|' "$@" > "${log}"\nexit 1`);
    writeClaudeSettings(world, {
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [{ type: "command", command: hook, args: ["a b", "$HOME"], onFailure: "block" }],
        },
      ],
    });
    await keel(world, ["run", "go", "--yes"]);
    expect(readFileSync(log, "utf8")).toBe("a b|$HOME|");
    expect(() => readFileSync(join(world.project, "out.txt"))).toThrow();
    expect(world.sim.requests[1]?.messages.at(-1)?.content).toContain(
      'failed; blocking because onFailure is "block"',
    );
  });
});
