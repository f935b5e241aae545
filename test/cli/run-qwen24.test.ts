/**
 * Qwen Code 0.24's payload fields and environment, end to end through `keel run` against the
 * simulator: a `~/.qwen/settings.json` hook records what it was given (stdin and `QWEN_CODE_*`),
 * and the shapes are the ones Qwen 0.24.4 gave the same hook (compat/qwen.ts --latest).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { commandHook, hookScript, keel, worldPerTest } from "../agent/harness.js";

const newWorld = worldPerTest();

interface Recorded {
  payload: Record<string, unknown>;
  env: Record<string, string>;
}

/** Every recorded firing of one event, in firing order. */
function recorded(dir: string, event: string): Recorded[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => {
      const payload = JSON.parse(readFileSync(join(dir, f), "utf8")) as Record<string, unknown>;
      const env = Object.fromEntries(
        readFileSync(join(dir, f.replace(/\.json$/, ".env")), "utf8")
          .split("\n")
          .filter((l) => l.startsWith("QWEN_CODE_"))
          .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
      );
      return { payload, env };
    })
    .filter((r) => r.payload.hook_event_name === event);
}

describe("keel run: Qwen Code 0.24 payload and environment", () => {
  it("prompt_id, tool_call_id, duration_ms, permission_mode, model and QWEN_CODE_* as Qwen 0.24 sends them", async () => {
    const world = await newWorld(
      script(reply().tool("shell", { command: "echo one" }), reply().text("done")),
    );
    const rec = join(world.root, "rec");
    mkdirSync(rec);
    const hook = hookScript(
      world,
      "record.sh",
      `f="${rec}/$(date +%s%N)"\ncat > "$f.json"\nenv > "$f.env"`,
    );
    mkdirSync(join(world.root, ".qwen"), { recursive: true });
    const events = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"];
    writeFileSync(
      join(world.root, ".qwen/settings.json"),
      JSON.stringify({ hooks: Object.fromEntries(events.map((e) => [e, [commandHook(hook)]])) }),
    );
    const r = await keel(world, ["run", "run it", "--yes", "--model", "deepseek-v4-flash"]);
    expect(r.code).toBe(0);

    const [start] = recorded(rec, "SessionStart");
    const [ups] = recorded(rec, "UserPromptSubmit");
    const [pre] = recorded(rec, "PreToolUse");
    const [post] = recorded(rec, "PostToolUse");
    const [stop] = recorded(rec, "Stop");
    if (!start || !ups || !pre || !post || !stop) throw new Error("an event did not fire");

    // model: on SessionStart only, and in QWEN_CODE_MODEL on every event.
    expect(start.payload.model).toBe("deepseek-v4-flash");
    for (const r of [ups, pre, post, stop]) expect(r.payload).not.toHaveProperty("model");
    for (const r of [start, ups, pre, post, stop]) {
      expect(r.env.QWEN_CODE_MODEL).toBe("deepseek-v4-flash");
      expect(r.env.QWEN_CODE_SESSION_ID).toBe(start.payload.session_id);
      expect(r.env.QWEN_CODE_AGENT_ID).toBe("");
      // Qwen's per-project runtime folder, where its transcripts live: Keel's is the session's.
      expect(r.env.QWEN_CODE_PROJECT_DIR).toBe(dirname(String(start.payload.transcript_path)));
      expect(r.payload).not.toHaveProperty("effort");
    }

    // One prompt id for the prompt, in Qwen's form (<session_id>########<n>, n from 0), on
    // every event after it and in QWEN_CODE_PROMPT_ID; "" on SessionStart, as Qwen 0.24.4.
    expect(start.payload).not.toHaveProperty("prompt_id");
    expect(start.env.QWEN_CODE_PROMPT_ID).toBe("");
    const promptId = ups.payload.prompt_id;
    expect(promptId).toBe(`${start.payload.session_id}########0`);
    for (const r of [ups, pre, post, stop]) {
      expect(r.payload.prompt_id).toBe(promptId);
      expect(r.env.QWEN_CODE_PROMPT_ID).toBe(promptId);
    }

    // The prompt as submitted; Stop's lists and how full the context was (Qwen 0.24.4).
    expect(ups.payload.submitted_prompt).toBe("run it");
    expect(stop.payload.background_tasks).toEqual([]);
    expect(stop.payload.crons).toEqual([]);
    expect(stop.payload.context_limit).toBe(1_000_000);
    expect(stop.payload.input_tokens).toBeGreaterThan(0);
    expect(stop.payload.context_usage).toBeCloseTo(Number(stop.payload.input_tokens) / 1_000_000);

    // The model's call id as tool_call_id on tool events; duration after the tool.
    expect(pre.payload.tool_call_id).toBe(pre.payload.tool_use_id);
    expect(post.payload.tool_call_id).toBe(pre.payload.tool_call_id);
    expect(typeof post.payload.tool_call_id).toBe("string");
    expect(typeof post.payload.duration_ms).toBe("number");
    expect(pre.payload).not.toHaveProperty("duration_ms");

    // Qwen's approval-mode words, now on UserPromptSubmit and Stop too.
    expect(ups.payload.permission_mode).toBeTypeOf("string");
    expect(stop.payload.permission_mode).toBe(ups.payload.permission_mode);
  });

  it("a failed command fires PostToolUseFailure, grep finding nothing PostToolUse; Claude's Bash matches", async () => {
    const world = await newWorld(
      script(
        reply().tool("shell", { command: "echo oops; exit 3" }),
        reply().tool("shell", { command: "grep nothing /dev/null" }),
        reply().text("done"),
      ),
    );
    const rec = join(world.root, "rec");
    mkdirSync(rec);
    const hook = hookScript(
      world,
      "record.sh",
      `f="${rec}/$(date +%s%N)"\ncat > "$f.json"\nenv > "$f.env"`,
    );
    mkdirSync(join(world.root, ".qwen"), { recursive: true });
    const group = commandHook(hook, "Bash");
    writeFileSync(
      join(world.root, ".qwen/settings.json"),
      JSON.stringify({ hooks: { PostToolUse: [group], PostToolUseFailure: [group] } }),
    );
    const r = await keel(world, ["run", "run it", "--yes", "--model", "deepseek-v4-flash"]);
    expect(r.code).toBe(0);
    const failures = recorded(rec, "PostToolUseFailure");
    const posts = recorded(rec, "PostToolUse");
    expect(failures.map((f) => (f.payload.tool_input as { command: string }).command)).toEqual([
      "echo oops; exit 3",
    ]);
    expect(failures[0]?.payload.tool_name).toBe("run_shell_command");
    // The error in Qwen's words, as Qwen Code 0.24.4 gave the same hook (compat:qwen).
    expect(failures[0]?.payload.error).toBe(
      "Command: echo oops; exit 3\nDirectory: (root)\nOutput: oops\nError: (none)\nExit Code: 3\nSignal: (none)\nProcess Group PGID: (none)",
    );
    expect(posts.map((f) => (f.payload.tool_input as { command: string }).command)).toEqual([
      "grep nothing /dev/null",
    ]);
  });
});
