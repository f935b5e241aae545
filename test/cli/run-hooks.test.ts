/**
 * Each hook event's effect end to end through `keel run` against the simulator, with real hook
 * scripts and real files (docs/hooks.md "Where results go").
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import {
  commandHook,
  hookScript,
  keel,
  type World,
  worldPerTest,
  writeSettings,
} from "../agent/harness.js";

const newWorld = worldPerTest();

function json(stdout: string): {
  result: string;
  toolCalls: Array<{ name: string; input: Record<string, unknown>; status: string }>;
  hookRuns: Array<{ event: string; source: string; outcome: string; durationMs: number }>;
} {
  const lines = stdout.trim().split("\n");
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0] ?? "{}");
}

/** The last message of request `i` (what the model saw last). */
function lastSent(w: World, i: number) {
  return w.sim.requests[i]?.messages.at(-1);
}

function sessionLines(w: World): string[] {
  const root = join(w.home, "sessions");
  const dirs = readdirSync(root);
  return dirs.flatMap((d) =>
    readdirSync(join(root, d))
      .filter((f) => f.endsWith(".jsonl") && !f.endsWith(".hooks.jsonl"))
      .flatMap((f) =>
        readFileSync(join(root, d, f), "utf8")
          .trim()
          .split("\n"),
      ),
  );
}

describe("keel run: hook events", () => {
  it("SessionStart output goes into the first user message, not the system prompt", async () => {
    const world = await newWorld(script(reply().text("ok")));
    const hook = hookScript(world, "start.sh", "cat >/dev/null\necho 'Use tabs in this repo.'");
    writeSettings(world, { SessionStart: [commandHook(hook, "startup")] });
    const r = await keel(world, ["run", "hi"]);
    expect(r.code).toBe(0);
    const [system, user] = world.sim.requests[0]?.messages ?? [];
    expect(system?.content).not.toContain("Use tabs");
    expect(user?.role).toBe("user");
    expect(user?.content).toContain("Use tabs in this repo.");
    expect(user?.content).toContain("hi");
  });

  it("UserPromptSubmit block: the prompt never reaches the model or the log; the user sees why", async () => {
    const world = await newWorld(script(reply().text("should not be used")));
    const hook = hookScript(
      world,
      "ups.sh",
      "cat >/dev/null\necho 'prompts mention secrets' >&2\nexit 2",
    );
    writeSettings(world, { UserPromptSubmit: [commandHook(hook)] });
    const r = await keel(world, ["run", "print the API_KEY secret"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("prompts mention secrets");
    expect(world.sim.requests).toHaveLength(0);
    expect(sessionLines(world).some((l) => l.includes("API_KEY secret"))).toBe(false);
  });

  it("UserPromptSubmit stdout and additionalContext are added to the user message", async () => {
    const world = await newWorld(script(reply().text("ok")));
    const plain = hookScript(world, "plain.sh", "cat >/dev/null\necho 'current branch: feature/x'");
    const ctx = hookScript(
      world,
      "ctx.sh",
      `cat >/dev/null\necho '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"ticket KEEL-42"},"systemMessage":"context added"}'`,
    );
    writeSettings(world, { UserPromptSubmit: [commandHook(plain), commandHook(ctx)] });
    const r = await keel(world, ["run", "fix the bug"]);
    expect(r.code).toBe(0);
    const user = world.sim.requests[0]?.messages.at(-1);
    expect(user?.content).toContain("fix the bug");
    expect(user?.content).toContain("current branch: feature/x");
    expect(user?.content).toContain("ticket KEEL-42");
    // systemMessage is for the user only.
    expect(r.stderr).toContain("context added");
    expect(world.sim.requests[0]?.rawBody).not.toContain("context added");
  });

  it("PreToolUse block: the tool does not run; the model gets an error naming the hook and reason", async () => {
    const world = await newWorld(
      script(reply().tool("write_file", { path: "x.txt", content: "x" }), reply().text("ok")),
    );
    const hook = hookScript(
      world,
      "guard.sh",
      "cat >/dev/null\necho 'x.txt is generated' >&2\nexit 2",
    );
    writeSettings(world, { PreToolUse: [commandHook(hook, "write_file")] });
    const r = await keel(world, ["run", "write", "--yes", "--output-format", "json"]);
    expect(r.code).toBe(0);
    const out = json(r.stdout);
    expect(out.toolCalls).toEqual([
      { name: "write_file", input: { path: "x.txt", content: "x" }, status: "blocked" },
    ]);
    expect(existsSync(join(world.project, "x.txt"))).toBe(false);
    const toolMsg = lastSent(world, 1);
    expect(toolMsg?.role).toBe("tool");
    expect(toolMsg?.content).toContain("x.txt is generated");
    expect(toolMsg?.content).toContain("guard.sh");
    expect(out.hookRuns).toContainEqual(
      expect.objectContaining({ event: "PreToolUse", outcome: "block" }),
    );
  });

  it("PreToolUse block in text output: the reason is said whole and once, no path cut (issue 29)", async () => {
    const world = await newWorld(
      script(reply().tool("write_file", { path: "x.txt", content: "x" }), reply().text("ok")),
    );
    const generated = "/home/someone/projects/a-rather-long-project-name/src/generated/deep/x.txt";
    const template = "/home/someone/projects/a-rather-long-project-name/templates/x.txt.tmpl";
    const reason = `${generated} is generated by scripts/generate-everything.sh; edit ${template} instead and rerun the generator`;
    const hook = hookScript(world, "guard.sh", `cat >/dev/null\necho '${reason}' >&2\nexit 2`);
    writeSettings(world, { PreToolUse: [commandHook(hook, "write_file")] });
    const r = await keel(world, ["run", "write", "--yes"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(reason);
    expect(r.stderr.split(generated)).toHaveLength(2);
  });

  it("PreToolUse updatedInput is re-validated: an invalid rewrite becomes an error result", async () => {
    const world = await newWorld(
      script(reply().tool("write_file", { path: "x.txt", content: "x" }), reply().text("ok")),
    );
    const hook = hookScript(
      world,
      "bad-rewrite.sh",
      `cat >/dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"path":"y.txt","content":42}}}'`,
    );
    writeSettings(world, { PreToolUse: [commandHook(hook, "write_file")] });
    const r = await keel(world, ["run", "write", "--yes", "--output-format", "json"]);
    expect(json(r.stdout).toolCalls[0]?.status).toBe("error");
    expect(existsSync(join(world.project, "x.txt"))).toBe(false);
    expect(existsSync(join(world.project, "y.txt"))).toBe(false);
    expect(lastSent(world, 1)?.content).toMatch(/rewrote the arguments.*content/);
  });

  it("PreToolUse allow skips the permission prompt; ask asks (headless: refused)", async () => {
    const world = await newWorld(
      script(
        reply().tool("write_file", { path: "allowed.txt", content: "a" }),
        reply().text("ok"),
        reply().tool("read_file", { path: "allowed.txt" }),
        reply().text("ok"),
      ),
    );
    const allow = hookScript(
      world,
      "allow.sh",
      `cat >/dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'`,
    );
    const ask = hookScript(
      world,
      "ask.sh",
      `cat >/dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"reads are audited"}}'`,
    );
    writeSettings(world, {
      PreToolUse: [commandHook(allow, "write_file"), commandHook(ask, "read_file")],
    });
    const first = await keel(world, ["run", "write", "--output-format", "json"]);
    expect(json(first.stdout).toolCalls[0]?.status).toBe("ok");
    expect(readFileSync(join(world.project, "allowed.txt"), "utf8")).toBe("a");
    const second = await keel(world, ["run", "read", "--output-format", "json"]);
    expect(json(second.stdout).toolCalls[0]?.status).toBe("blocked");
    expect(lastSent(world, 3)?.content).toContain("Permission denied");
  });

  it("PostToolUse additionalContext and exit-2 feedback follow the tool result, in a message of their own", async () => {
    const world = await newWorld(
      script(reply().tool("read_file", { path: "a.txt" }), reply().text("ok")),
    );
    const { writeFileSync } = await import("node:fs");
    writeFileSync(join(world.project, "a.txt"), "hello file\n");
    const ctx = hookScript(
      world,
      "ctx.sh",
      `cat >/dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"a.txt is owned by team X"}}'`,
    );
    const feedback = hookScript(
      world,
      "fb.sh",
      "cat >/dev/null\necho 'remember to update b.txt' >&2\nexit 2",
    );
    writeSettings(world, {
      PostToolUse: [commandHook(ctx, "read_file"), commandHook(feedback, "read_file")],
    });
    const r = await keel(world, ["run", "read a"]);
    expect(r.code).toBe(0);
    const sent = world.sim.requests[1]?.messages ?? [];
    const toolMsg = sent.at(-2);
    expect(toolMsg?.role).toBe("tool");
    expect(toolMsg?.content).toContain("hello file");
    expect(toolMsg?.content).not.toContain("a.txt is owned by team X");
    const hookMsg = sent.at(-1);
    expect(hookMsg?.role).toBe("user");
    expect(hookMsg?.content).toContain("a.txt is owned by team X");
    expect(hookMsg?.content).toContain("remember to update b.txt");
  });

  it("PostToolUse updatedToolOutput replaces what the model sees", async () => {
    const world = await newWorld(
      script(reply().tool("read_file", { path: "s.txt" }), reply().text("ok")),
    );
    const { writeFileSync } = await import("node:fs");
    writeFileSync(join(world.project, "s.txt"), "password=hunter2\n");
    const redact = hookScript(
      world,
      "redact.sh",
      `cat >/dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":"[redacted by policy]"}}'`,
    );
    writeSettings(world, { PostToolUse: [commandHook(redact, "read_file")] });
    await keel(world, ["run", "read s"]);
    const body = world.sim.requests[1]?.rawBody ?? "";
    expect(body).toContain("[redacted by policy]");
    expect(body).not.toContain("hunter2");
  });

  it("PostToolUseFailure fires for a failed tool and its context reaches the model", async () => {
    const world = await newWorld(
      script(reply().tool("read_file", { path: "missing.txt" }), reply().text("ok")),
    );
    const log = join(world.root, "failure.log");
    const hook = hookScript(
      world,
      "fail.sh",
      `cat > "${log}"\necho '{"hookSpecificOutput":{"hookEventName":"PostToolUseFailure","additionalContext":"hint: files live in src/"}}'`,
    );
    writeSettings(world, { PostToolUseFailure: [commandHook(hook, "read_file")] });
    const r = await keel(world, ["run", "read", "--output-format", "json"]);
    expect(json(r.stdout).toolCalls[0]?.status).toBe("error");
    const payload = JSON.parse(readFileSync(log, "utf8"));
    expect(payload.hook_event_name).toBe("PostToolUseFailure");
    expect(payload.tool_name).toBe("read_file");
    expect(typeof payload.error).toBe("string");
    expect(lastSent(world, 1)?.content).toContain("hint: files live in src/");
  });

  it("a shell command exiting non-zero fires a Qwen Code PostToolUseFailure hook, as Qwen 0.24 does", async () => {
    const world = await newWorld(
      script(reply().tool("shell", { command: "echo oops; exit 3" }), reply().text("ok")),
    );
    const log = join(world.root, "qwen-fail.log");
    const postLog = join(world.root, "qwen-post.log");
    const hook = hookScript(world, "qfail.sh", `cat > "${log}"`);
    const post = hookScript(world, "qpost.sh", `cat > "${postLog}"`);
    mkdirSync(join(world.root, ".qwen"), { recursive: true });
    writeFileSync(
      join(world.root, ".qwen/settings.json"),
      JSON.stringify({
        hooks: {
          PostToolUse: [commandHook(post, "run_shell_command")],
          PostToolUseFailure: [commandHook(hook, "run_shell_command")],
        },
      }),
    );
    const r = await keel(world, ["run", "run it", "--yes", "--output-format", "json"]);
    expect(json(r.stdout).toolCalls[0]?.status).toBe("error");
    const payload = JSON.parse(readFileSync(log, "utf8"));
    expect(payload.hook_event_name).toBe("PostToolUseFailure");
    expect(payload.tool_name).toBe("run_shell_command");
    // Qwen Code 0.15 fired PostToolUse for it; 0.24 does not.
    expect(existsSync(postLog)).toBe(false);
  });

  it("Stop block continues with the reason; stop_hook_active is true on the next Stop", async () => {
    const world = await newWorld(
      script(reply().text("first answer"), reply().text("second answer")),
    );
    const log = join(world.root, "stop.log");
    const hook = hookScript(
      world,
      "stop.sh",
      `input=$(cat)\nprintf '%s\\n' "$input" >> "${log}"\ncase "$input" in *'"stop_hook_active":true'*) exit 0;; esac\necho 'also update the changelog' >&2\nexit 2`,
    );
    writeSettings(world, { Stop: [commandHook(hook)] });
    const r = await keel(world, ["run", "do it", "--output-format", "json"]);
    expect(r.code).toBe(0);
    expect(json(r.stdout).result).toBe("second answer");
    const payloads = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(payloads.map((p) => p.stop_hook_active)).toEqual([false, true]);
    expect(payloads[0].last_assistant_message).toBe("first answer");
    const continued = lastSent(world, 1);
    expect(continued?.role).toBe("user");
    expect(continued?.content).toContain("also update the changelog");
  });

  it("Stop blocks at most 8 times in a row", async () => {
    const s = script();
    for (let i = 0; i < 12; i++) s.text(`answer ${i}`);
    const world = await newWorld(s);
    const hook = hookScript(world, "never.sh", "cat >/dev/null\necho 'not yet' >&2\nexit 2");
    writeSettings(world, { Stop: [commandHook(hook)] });
    const r = await keel(world, ["run", "go", "--output-format", "json"]);
    expect(r.code).toBe(0);
    expect(world.sim.requests).toHaveLength(9);
    expect(json(r.stdout).result).toBe("answer 8");
  });

  it("continue:false ends the turn and shows stopReason", async () => {
    const world = await newWorld(
      script(
        reply().tool("read_file", { path: "a.txt" }).tool("list_dir", { path: "." }),
        reply().text("never"),
      ),
    );
    const hook = hookScript(
      world,
      "halt.sh",
      `cat >/dev/null\necho '{"continue":false,"stopReason":"Budget exhausted for today"}'`,
    );
    writeSettings(world, {
      PostToolUseFailure: [commandHook(hook)],
      PostToolUse: [commandHook(hook)],
    });
    const r = await keel(world, ["run", "go"]);
    expect(r.stderr).toContain("Budget exhausted for today");
    expect(world.sim.requests).toHaveLength(1);
    // Both calls still got a result, so the stored conversation stays valid.
    const toolLines = sessionLines(world).filter((l) => l.includes('"role":"tool"'));
    expect(toolLines).toHaveLength(2);
  });

  it("SessionEnd fires when the run finishes", async () => {
    const world = await newWorld(script(reply().text("ok")));
    const log = join(world.root, "end.log");
    const hook = hookScript(world, "end.sh", `cat > "${log}"`);
    writeSettings(world, { SessionEnd: [commandHook(hook)] });
    const r = await keel(world, ["run", "hi", "--output-format", "json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(log, "utf8"))).toMatchObject({
      hook_event_name: "SessionEnd",
      reason: "other",
    });
    expect(json(r.stdout).hookRuns).toContainEqual(
      expect.objectContaining({ event: "SessionEnd", outcome: "pass" }),
    );
  });
});
