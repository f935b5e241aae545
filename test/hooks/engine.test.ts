import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHookEngine } from "../../src/hooks/engine.js";
import { buildPayload } from "../../src/hooks/payload.js";
import { explainFiring } from "../../src/hooks/plan.js";
import type { SpawnFn } from "../../src/hooks/process.js";
import type { HookRunRecord } from "../../src/hooks/types.js";
import { validateHooks } from "../../src/hooks/validate.js";
import { makeWorld, type World, worldOptions } from "./helpers.js";

let w: World;
let spawned: string[];
const counting: SpawnFn = (file, args, options) => {
  spawned.push(args.at(-1) ?? file);
  return spawn(file, [...args], options);
};
beforeEach(() => {
  w = makeWorld();
  spawned = [];
});
afterEach(() => w.cleanup());

const engineFor = (
  extra: Parameters<typeof createHookEngine>[0] extends infer O ? Partial<O> : never = {},
) => createHookEngine({ ...worldOptions(w), spawn: counting, ...extra });

const shell = (command: string) =>
  buildPayload("PreToolUse", { projectDir: w.project, tool: "shell", input: { command } });
const write = (path: string) =>
  buildPayload("PreToolUse", {
    projectDir: w.project,
    tool: "write_file",
    input: { path, content: "" },
  });
const cmd = (command: string, extra: Record<string, unknown> = {}) => ({
  type: "command",
  command,
  ...extra,
});

describe("if conditions", () => {
  it("spawn nothing when they do not match, and run when they do", async () => {
    w.json("keel/settings.json", {
      hooks: {
        PreToolUse: [
          { hooks: [cmd("echo push", { if: "Bash(git push*)" })] },
          { hooks: [cmd("echo ts", { if: "Write(src/**/*.ts)" })] },
        ],
      },
    });
    const engine = await engineFor();
    await engine.fire({ event: "PreToolUse", payload: shell("git status") });
    await engine.fire({ event: "PreToolUse", payload: write("docs/readme.md") });
    await engine.fire({ event: "PreToolUse", payload: write("src/a.js") });
    expect(spawned).toEqual([]);
    await engine.fire({ event: "PreToolUse", payload: shell("git add . && git push origin") });
    await engine.fire({ event: "PreToolUse", payload: write("src/deep/a.ts") });
    expect(spawned).toEqual(["echo push", "echo ts"]);
  });
});

describe("trust", () => {
  beforeEach(() => {
    w.json("project/.keel/settings.json", {
      hooks: { PreToolUse: [{ hooks: [cmd("echo project")] }] },
    });
    w.json("keel/settings.json", { hooks: { PreToolUse: [{ hooks: [cmd("echo user")] }] } });
  });

  it("untrusted project hooks are listed but do not run; user hooks do", async () => {
    const engine = await engineFor();
    expect(engine.listing().projectTrust).toMatchObject({ trusted: false, hasProjectHooks: true });
    expect(engine.listing().hooks.map((h) => [h.source.scope, h.trusted])).toEqual([
      ["user", true],
      ["project", false],
    ]);
    await engine.fire({ event: "PreToolUse", payload: shell("ls") });
    expect(spawned).toEqual(["echo user"]);
  });

  it("trust persists in $KEEL_HOME/trust.json; a change to project hooks makes them untrusted again", async () => {
    const engine = await engineFor();
    await engine.trust();
    await engine.fire({ event: "PreToolUse", payload: shell("ls") });
    expect(spawned).toEqual(["echo user", "echo project"]);

    spawned = [];
    const again = await engineFor();
    expect(again.listing().projectTrust.trusted).toBe(true);

    w.json("project/.keel/settings.json", {
      hooks: { PreToolUse: [{ hooks: [cmd("echo changed")] }] },
    });
    expect(await again.changedOnDisk()).toBe(true);
    const listing = await again.reload();
    expect(listing.projectTrust.trusted).toBe(false);
    await again.fire({ event: "PreToolUse", payload: shell("ls") });
    expect(spawned).toEqual(["echo user"]);

    await again.untrust();
    expect((await engineFor()).listing().projectTrust.trusted).toBe(false);
  });
});

describe("planning", () => {
  it("explainFiring says, per hook, why it does not run, agreeing with what fire() spawns", async () => {
    w.json("keel/settings.json", {
      hooks: {
        PreToolUse: [
          { matcher: "shell", hooks: [cmd("echo runs")] },
          { matcher: "write_file", hooks: [cmd("echo other-tool")] },
          { matcher: "shell", hooks: [cmd("echo push", { if: "shell(git push*)" })] },
          { matcher: "shell", hooks: [cmd("echo edit", { if: "Edit(*.ts)" })] },
          { matcher: "[bad", hooks: [cmd("echo bad")] },
          { hooks: [cmd("echo runs")] },
        ],
        Stop: [{ hooks: [cmd("echo stop")] }],
      },
    });
    w.json("project/.claude/settings.json", {
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [cmd("echo claude")] }] },
    });
    const engine = await engineFor();
    const payload = shell("ls -la");
    const explained = explainFiring(engine.listing().hooks, payload, w.project);
    expect(explained.map((e) => [e.skip, e.reason])).toEqual([
      [null, null],
      ["matcher", expect.stringMatching(/^matcher "write_file" does not match tool shell \/ Bash/)],
      ["if", 'if "shell(git push*)" does not match this input'],
      ["if", 'if "Edit(*.ts)" is about edit_file, not shell'],
      ["inactive", expect.stringMatching(/^invalid matcher regex/)],
      [
        "duplicate",
        `identical to a hook that runs (${w.keelHome}/settings.json:7); identical handlers run once`,
      ],
      ["untrusted", "project hooks not trusted (keel hooks trust)"],
    ]);
    await engine.fire({ event: "PreToolUse", payload });
    expect(spawned).toEqual(["echo runs"]);
    expect(explained.filter((e) => e.runs)).toHaveLength(spawned.length);
  });

  it("identical handlers in claude and keel files run once", async () => {
    w.json("keel/settings.json", {
      hooks: { PreToolUse: [{ matcher: "shell", hooks: [cmd("echo same")] }] },
    });
    w.json("home/.claude/settings.json", {
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [cmd("echo same")] }] },
    });
    w.json("home/.reasonix/settings.json", { hooks: { PreToolUse: [{ command: "echo other" }] } });
    const engine = await engineFor();
    const d = await engine.fire({ event: "PreToolUse", payload: shell("ls") });
    expect(spawned).toEqual(["echo same", "echo other"]);
    expect(d.runs.map((r) => r.dialect)).toEqual(["keel", "reasonix1"]);
  });

  it("exec-form hooks are labelled with shell-quoted arguments", async () => {
    w.json("keel/settings.json", {
      hooks: {
        PreToolUse: [
          { hooks: [{ type: "command", args: ["printf", "%s|", "a b", "it's", ""] }] },
          { hooks: [{ type: "command", args: ["printf", "%s|", "a", "b"] }] },
        ],
      },
    });
    const d = await (await engineFor()).fire({ event: "PreToolUse", payload: shell("ls") });
    expect(d.runs.map((r) => [r.command, r.stdout])).toEqual([
      ["printf '%s|' 'a b' 'it'\\''s' ''", "a b|it's||"],
      ["printf '%s|' a b", "a|b|"],
    ]);
  });

  it("a malformed regex makes only that hook inactive", async () => {
    w.json("keel/settings.json", {
      hooks: {
        PreToolUse: [
          { matcher: "[bad", hooks: [cmd("echo bad")] },
          { matcher: "shell", hooks: [cmd("echo good")] },
        ],
      },
    });
    const engine = await engineFor();
    await engine.fire({ event: "PreToolUse", payload: shell("ls") });
    expect(spawned).toEqual(["echo good"]);
    expect(engine.listing().hooks[0]?.active).toBe(false);
  });
});

describe("running", () => {
  it("a gating timeout fails closed unless onTimeout is allow", async () => {
    w.json("keel/settings.json", {
      hooks: {
        PreToolUse: [{ matcher: "shell", hooks: [cmd("sleep 30", { timeout: 0.2 })] }],
        UserPromptSubmit: [{ hooks: [cmd("sleep 30", { timeout: 0.2, onTimeout: "allow" })] }],
      },
    });
    const engine = await engineFor();
    const d = await engine.fire({ event: "PreToolUse", payload: shell("ls") });
    expect(d.decision).toBe("block");
    expect(d.reason).toMatch(/timed out/);
    expect(d.runs[0]?.outcome).toBe("timeout");
    const p = await engine.fire({
      event: "UserPromptSubmit",
      payload: buildPayload("UserPromptSubmit", { projectDir: w.project, prompt: "hi" }),
    });
    expect(p.decision).toBe("pass");
    expect(p.runs[0]?.outcome).toBe("timeout");
  }, 10_000);

  it("records every run, calls onRun, and keeps per-hook stats", async () => {
    w.json("keel/settings.json", {
      hooks: {
        PreToolUse: [
          { hooks: [cmd("exit 2")] },
          { hooks: [cmd("exit 1")] },
          { hooks: [cmd("true")] },
        ],
      },
    });
    const seen: HookRunRecord[] = [];
    const engine = await engineFor({ onRun: (r) => seen.push(r) });
    for (let i = 0; i < 3; i++) await engine.fire({ event: "PreToolUse", payload: shell("ls") });
    expect(seen).toHaveLength(9);
    const stats = engine.stats();
    expect(stats.map((s) => [s.command, s.runs, s.blocks, s.warnings])).toEqual([
      ["exit 2", 3, 3, 0],
      ["exit 1", 3, 0, 3],
      ["true", 3, 0, 0],
    ]);
    for (const s of stats) expect(s.maxMs).toBeGreaterThanOrEqual(s.p95Ms);
  });

  it("an abort cancels running hooks", async () => {
    w.json("keel/settings.json", { hooks: { PreToolUse: [{ hooks: [cmd("sleep 30")] }] } });
    const engine = await engineFor();
    const controller = new AbortController();
    const pending = engine.fire({
      event: "PreToolUse",
      payload: shell("ls"),
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 100);
    const d = await pending;
    expect(d.runs[0]?.outcome).toBe("cancelled");
    expect(d.decision).toBe("pass");
  }, 10_000);

  it("never throws, even when a handler does", async () => {
    w.json("keel/settings.json", { hooks: { PreToolUse: [{ hooks: [cmd("true")] }] } });
    const engine = await engineFor({
      handlers: {
        command: async () => {
          throw new Error("boom");
        },
      },
    });
    const d = await engine.fire({ event: "PreToolUse", payload: shell("ls") });
    expect(d.runs[0]).toMatchObject({ outcome: "error", message: "hook handler failed: boom" });
  });

  it("SessionEnd hooks share one budget", async () => {
    w.json("keel/settings.json", { hooks: { SessionEnd: [{ hooks: [cmd("sleep 30")] }] } });
    const engine = await engineFor();
    const d = await engine.fire({
      event: "SessionEnd",
      payload: buildPayload("SessionEnd", { projectDir: w.project }),
    });
    expect(d.runs[0]?.outcome).toBe("timeout");
  }, 10_000);
});

describe("async hooks", () => {
  it("run in the background; their context arrives via takeAsyncResults", async () => {
    w.json("keel/settings.json", {
      hooks: {
        PostToolUse: [
          {
            hooks: [
              cmd(`echo '{"systemMessage":"audited","additionalContext":"bg ctx"}'`, {
                async: true,
              }),
            ],
          },
        ],
      },
    });
    let done: (r: HookRunRecord) => void = () => {};
    const finished = new Promise<HookRunRecord>((r) => {
      done = r;
    });
    const engine = await engineFor({ onRun: (r) => r.async && done(r) });
    const post = buildPayload("PostToolUse", {
      projectDir: w.project,
      tool: "shell",
      input: { command: "ls" },
    });
    const d = await engine.fire({ event: "PostToolUse", payload: post });
    expect(d.runs).toEqual([]);
    expect((await finished).async).toBe(true);
    expect(engine.takeAsyncResults().map((r) => [r.additionalContext, r.systemMessage])).toEqual([
      ["bg ctx", "audited"],
    ]);
    expect(engine.takeAsyncResults()).toEqual([]);
  });

  it("run at most asyncConcurrency at a time, and every firing runs its own (no dedup across firings)", async () => {
    const release = join(w.root, "release");
    w.json("keel/settings.json", {
      hooks: {
        PostToolUse: [
          {
            hooks: [
              cmd(
                `while [ ! -f ${release} ]; do sleep 0.02; done; echo '{"systemMessage":"done"}'`,
                {
                  async: true,
                },
              ),
            ],
          },
        ],
      },
    });
    let live = 0;
    let maxLive = 0;
    let started = 0;
    let fourth: () => void = () => {};
    const fourStarted = new Promise<void>((r) => {
      fourth = r;
    });
    const tracking: SpawnFn = (file, args, options) => {
      const child = spawn(file, [...args], options);
      live++;
      started++;
      maxLive = Math.max(maxLive, live);
      child.on("exit", () => {
        live--;
      });
      if (started === 4) fourth();
      return child;
    };
    const engine = await createHookEngine({ ...worldOptions(w), spawn: tracking });
    const post = buildPayload("PostToolUse", {
      projectDir: w.project,
      tool: "shell",
      input: { command: "ls" },
    });
    for (let i = 0; i < 6; i++) await engine.fire({ event: "PostToolUse", payload: post });
    await fourStarted;
    writeFileSync(release, "");
    await engine.shutdown({ budgetMs: 20_000 });
    const results = engine.takeAsyncResults();
    expect(results.map((r) => [r.run.outcome, r.systemMessage])).toEqual(
      Array.from({ length: 6 }, () => ["pass", "done"]),
    );
    expect(started).toBe(6);
    expect(maxLive).toBe(4);
  }, 30_000);

  it("are killed at shutdown after the budget", async () => {
    w.json("keel/settings.json", {
      hooks: { PostToolUse: [{ hooks: [cmd("sleep 30", { async: true })] }] },
    });
    const engine = await engineFor();
    const post = buildPayload("PostToolUse", {
      projectDir: w.project,
      tool: "shell",
      input: { command: "ls" },
    });
    await engine.fire({ event: "PostToolUse", payload: post });
    await engine.fire({ event: "PostToolUse", payload: post });
    await engine.shutdown({ budgetMs: 100 });
    const results = engine.takeAsyncResults();
    expect(results.map((r) => r.run.outcome)).toEqual(["cancelled", "cancelled"]);
  }, 10_000);
});

describe("validateHooks", () => {
  it("reports missing and non-executable scripts and commands not on PATH", async () => {
    w.write("project/hooks/not-exec.sh", "#!/bin/sh\n");
    w.write("project/hooks/ok.sh", "#!/bin/sh\n", { executable: true });
    w.json("project/.claude/settings.json", {
      hooks: {
        PreToolUse: [
          {
            hooks: [
              cmd('"$CLAUDE_PROJECT_DIR"/.claude/hooks/missing.sh'),
              cmd("./hooks/not-exec.sh"),
              cmd("./hooks/ok.sh --flag"),
              cmd("no-such-tool-xyz --check"),
              cmd("python3 hooks/gone.py"),
              cmd("jq -r .tool_input.command | grep -q rm && exit 2 || exit 0"),
              cmd("FOO=1 echo hi"),
              // docs/hooks.md's Claude example: the command is inside the substitution.
              cmd(`f=$(jq -r '.tool_input.file_path'); case "$f" in *.json) jq empty "$f";; esac`),
              cmd("out=`./hooks/ok.sh --x`; echo $out"),
              cmd("X=1 ./hooks/also-missing.sh"),
            ],
          },
        ],
      },
    });
    const engine = await engineFor();
    const problems = await validateHooks(engine.listing(), { projectDir: w.project });
    expect(problems.map((p) => [p.message, p.line])).toEqual([
      [
        "PreToolUse hook: command not found: " +
          `${w.project}/.claude/hooks/missing.sh (no such file)`,
        6,
      ],
      ["PreToolUse hook: not executable: ./hooks/not-exec.sh (chmod +x?)", 10],
      ["PreToolUse hook: command not found: no-such-tool-xyz (not on PATH)", 18],
      ["PreToolUse hook: script not found: hooks/gone.py", 22],
      ["PreToolUse hook: command not found: ./hooks/also-missing.sh (no such file)", 42],
    ]);
  });
});

describe("faulty hooks through the engine", () => {
  it("invalid JSON, wrong field types and a missing executable are warnings that never block", async () => {
    w.write("project/bad-json.py", "print('{\"decision\": block}')\n");
    w.write(
      "project/wrong-type.js",
      'process.stdout.write(JSON.stringify({ hookSpecificOutput: { permissionDecision: "deny", additionalContext: 42 } }));\n',
    );
    w.json("keel/settings.json", {
      hooks: {
        PreToolUse: [
          {
            hooks: [
              cmd("python3 bad-json.py"),
              cmd("node wrong-type.js"),
              cmd("./scripts/missing-guard.sh"),
            ],
          },
        ],
      },
    });
    const engine = await engineFor();
    const d = await engine.fire({ event: "PreToolUse", payload: shell("ls") });
    expect(d.decision).toBe("pass");
    expect(d.runs.map((r) => r.outcome)).toEqual(["warn", "warn", "warn"]);
    expect(d.runs[0]?.message).toMatch(/not valid JSON/);
    expect(d.runs[1]?.message).toMatch(/"hookSpecificOutput.additionalContext"/);
    expect(d.runs[2]).toMatchObject({ exitCode: 127 });
    expect(d.runs[2]?.message).toMatch(/^command not found/);
  });

  it("a 1 MB tool input reaches a hook that never reads stdin (env values are capped)", async () => {
    w.json("keel/settings.json", {
      hooks: {
        PreToolUse: [
          { hooks: [cmd('printf %s "$tool_input_content" | wc -c | tr -d " " >&2; exit 2')] },
        ],
      },
    });
    const engine = await engineFor();
    const big = buildPayload("PreToolUse", {
      projectDir: w.project,
      tool: "write_file",
      input: { path: "a.txt", content: "z".repeat(1024 * 1024) },
    });
    const d = await engine.fire({ event: "PreToolUse", payload: big });
    expect(d.decision).toBe("block");
    expect(d.reason).toBe(String(32 * 1024));
  });
});
