/**
 * `keel hooks` end to end: real fixture projects in each dialect, real hook processes (bash +
 * jq, python3, node, sh), a temp KEEL_HOME and HOME, the CLI run in-process via main().
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { VERDICT_TOOL } from "../../src/agent/subagent.js";
import { runHooksList } from "../../src/cli/commands/hooks/index.js";
import { appendHookAudit } from "../../src/session/index.js";
import { type Simulator, startSimulator } from "../../src/sim/index.js";
import { keel } from "../helpers/cli.js";
import { parseOnlyJson, type Sandbox, sandbox } from "./hooks-helpers.js";

let box: Sandbox | undefined;
afterEach(async () => {
  await box?.cleanup();
  box = undefined;
});

async function project(name?: string): Promise<Sandbox> {
  box = await sandbox(name);
  return box;
}

/** A fixture project whose project hooks are trusted. */
async function trustedProject(name: string): Promise<Sandbox> {
  const p = await project(name);
  await keel(["hooks", "trust", "--cwd", p.project]);
  return p;
}

async function testJson(dir: string, ...args: string[]) {
  const r = await keel(["hooks", "test", ...args, "--json", "--cwd", dir]);
  return { ...r, json: parseOnlyJson(r.stdout) };
}

/** `keel hooks test PreToolUse --json` for a shell tool call running `command`. */
function shellTest(dir: string, command: string) {
  return testJson(dir, "PreToolUse", "--tool", "shell", "--input", JSON.stringify({ command }));
}

/** Writes user-level (trusted) settings to `$KEEL_HOME/settings.json`. */
async function userSettings(p: Sandbox, settings: unknown): Promise<void> {
  await mkdir(p.keelHome, { recursive: true });
  await writeFile(join(p.keelHome, "settings.json"), JSON.stringify(settings));
}

const RM_RF = ["PreToolUse", "--tool", "shell", "--input", '{"command":"rm -rf /"}'];

describe("keel hooks test: Claude Code dialect", () => {
  it("does not run untrusted project hooks, and says so on stderr", async () => {
    const p = await project("claude");
    const r = await testJson(p.project, ...RM_RF);
    // Not "pass": the matching hook did not run (exit 1, decision "untrusted").
    expect(r.code).toBe(1);
    expect(r.json.decision).toBe("untrusted");
    expect(r.json.untrusted).toMatchObject([{ event: "PreToolUse" }]);
    expect(r.json.runs).toEqual([]);
    expect(r.stderr).toContain("untrusted");
    expect(r.stderr).toContain("validate-bash.sh");
    expect(r.stderr).toContain("keel hooks trust");
  });

  it("denies rm -rf through a bash + jq validator once trusted, exit 2", async () => {
    const p = await project("claude");
    const trust = await keel(["hooks", "trust", "--cwd", p.project]);
    expect(trust.code).toBe(0);
    expect(trust.stdout).toContain("validate-bash.sh");

    const r = await testJson(p.project, ...RM_RF);
    expect(r.code).toBe(2);
    expect(r.json).toMatchObject({ event: "PreToolUse", decision: "deny", continue: true });
    expect(String(r.json.reason)).toContain("Destructive command blocked by policy");
    expect(r.json.runs).toMatchObject([
      { dialect: "claude", outcome: "block", exitCode: 0, truncated: false },
    ]);
    expect(Object.keys(r.json).sort()).toEqual(
      [
        "event",
        "decision",
        "reason",
        "updatedInput",
        "additionalContext",
        "systemMessages",
        "continue",
        "runs",
      ].sort(),
    );
  });

  it("lets an ordinary command through with exit 0", async () => {
    const p = await trustedProject("claude");
    const r = await shellTest(p.project, "ls -la");
    expect(r.code).toBe(0);
    expect(r.json.decision).toBe("pass");
    expect(r.json.runs).toMatchObject([{ outcome: "pass", exitCode: 0 }]);
  });

  it("trust's summary of a file with problems counts the hooks as trusted now", async () => {
    const p = await project();
    await mkdir(join(p.project, ".claude"), { recursive: true });
    await writeFile(
      join(p.project, ".claude/settings.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: [{ hooks: [{ type: "command", command: "true" }] }],
          NoSuchEvent: [{ hooks: [{ type: "command", command: "true" }] }],
        },
      }),
    );
    const r = await keel(["hooks", "trust", "--cwd", p.project]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("NoSuchEvent");
    expect(r.stderr).toMatch(/\d+ hooks? from 1 file/);
    expect(r.stderr).not.toContain("untrusted");
  });

  it("trust with nothing loaded from a broken project file says why and fails", async () => {
    const p = await project();
    await mkdir(join(p.project, ".claude"), { recursive: true });
    await writeFile(
      join(p.project, ".claude/settings.json"),
      '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]},}',
    );
    const r = await keel(["hooks", "trust", "--cwd", p.project]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      `No project hooks loaded in ${p.project}; nothing trusted (1 error below).\n`,
    );
    expect(r.stderr).toContain(".claude/settings.json:1:");
    expect(r.stderr).toContain("trailing comma");
  });

  it("reads comments in settings files, as Gemini CLI and Qwen Code do", async () => {
    const p = await project();
    await mkdir(join(p.project, ".gemini"), { recursive: true });
    await writeFile(
      join(p.project, ".gemini/settings.json"),
      '{ // project hooks\n  "hooks": {"BeforeAgent": [{"hooks": [{"type": "command", "command": "true"}]}]} /* end */\n}\n',
    );
    const r = await keel(["hooks", "trust", "--cwd", p.project]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Trusted 1 project hook in /);
    expect(r.stderr).toBe("");
  });

  it("stops running the hooks after untrust", async () => {
    const p = await trustedProject("claude");
    const untrust = await keel(["hooks", "untrust", "--cwd", p.project]);
    expect(untrust.code).toBe(0);
    const r = await testJson(p.project, ...RM_RF);
    expect(r.code).toBe(1);
    expect(r.json.decision).toBe("untrusted");
    expect(r.json.runs).toEqual([]);
  });

  it("untrust on a stale trust (hooks edited since) says it removed it, and a second says nothing changed", async () => {
    const p = await trustedProject("claude");
    const settings = join(p.project, ".claude/settings.json");
    const edited = JSON.parse(await readFile(settings, "utf8"));
    edited.hooks.Stop = [{ hooks: [{ type: "command", command: "true" }] }];
    await writeFile(settings, JSON.stringify(edited));
    const stale = await keel(["hooks", "untrust", "--cwd", p.project]);
    expect(stale.code).toBe(0);
    expect(stale.stdout).toContain(`Removed trust for ${p.project};`);
    const again = await keel(["hooks", "untrust", "--cwd", p.project]);
    expect(again.stdout).toContain(`${p.project} was not trusted; nothing changed.`);
  });

  it("prints a human summary with the decision", async () => {
    const p = await trustedProject("claude");
    const r = await keel(["hooks", "test", ...RM_RF, "--cwd", p.project]);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain("Decision: deny");
    expect(r.stdout).toContain("validate-bash.sh");
    for (const line of r.stdout.split("\n")) expect([...line].length).toBeLessThanOrEqual(80);
  });

  it("says in the human output why each hook of the event did not run", async () => {
    const p = await project("keel");
    await writeFile(
      join(p.project, ".keel", "settings.local.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            { matcher: "write_file", hooks: [{ type: "command", command: "echo writes" }] },
            { matcher: "(", hooks: [{ type: "command", command: "echo broken" }] },
          ],
        },
      }),
    );
    const before = await keel(["hooks", "test", "PreToolUse", "--cwd", p.project]);
    expect(before.stdout).toContain("project hooks not trusted (keel hooks trust)");
    expect(before.stderr).not.toContain("untrusted project hook");
    await keel(["hooks", "trust", "--cwd", p.project]);
    const r = await keel([
      "hooks",
      "test",
      "PreToolUse",
      "--input",
      '{"command":"ls"}',
      "--cwd",
      p.project,
    ]);
    const notRun = r.stdout.slice(r.stdout.indexOf("Not run:"));
    expect(notRun).toMatch(
      /no-push\.sh \(\.keel\/settings\.json:\d+\)\n\s+→ if "shell\(git push\*\)" does not match this input/,
    );
    expect(notRun).toMatch(/echo writes .*\n\s+→ matcher "write_file" does not match tool shell/);
    expect(notRun).toMatch(/echo broken .*\n\s+→ invalid matcher regex/);
    // The same reasons go to stderr with --json, whose stdout stays one object.
    const json = await testJson(p.project, "PreToolUse");
    expect(json.stderr).toContain("inactive hook not run: echo broken: invalid matcher regex");
  });
});

describe("keel hooks test: other dialects", () => {
  it("Reasonix: a jq one-liner reading .toolArgs.command blocks with exit 2", async () => {
    const p = await trustedProject("reasonix");
    const blocked = await testJson(p.project, ...RM_RF);
    expect(blocked.code).toBe(2);
    expect(blocked.json.decision).toBe("block");
    expect(String(blocked.json.reason)).toContain("refusing rm -rf");
    expect(blocked.json.runs).toMatchObject([
      { dialect: "reasonix", outcome: "block", exitCode: 2 },
    ]);

    const allowed = await shellTest(p.project, "ls");
    expect(allowed.code).toBe(0);
    expect(allowed.json.decision).toBe("pass");
  });

  it(".hooks.json: a python3 hook exiting 1 blocks with its stderr as the reason", async () => {
    const p = await trustedProject("tutorial");
    const blocked = await shellTest(p.project, "sudo rm x");
    expect(blocked.code).toBe(2);
    expect(blocked.json.decision).toBe("block");
    expect(String(blocked.json.reason)).toContain("sudo is not allowed in this project");
    expect(blocked.json.runs).toMatchObject([
      { dialect: "tutorial", outcome: "block", exitCode: 1 },
    ]);

    const allowed = await shellTest(p.project, "ls");
    expect(allowed.code).toBe(0);
  });

  it("cagent: a node hook's snake_case updated_input.cmd comes back as updatedInput.command", async () => {
    const p = await trustedProject("cagent");
    const r = await shellTest(p.project, "npm install");
    expect(r.code).toBe(0);
    expect(r.json.decision).toBe("allow");
    expect(r.json.updatedInput).toEqual({ command: "npm ci" });
    expect(r.json.runs).toMatchObject([{ dialect: "cagent", outcome: "pass" }]);

    const untouched = await shellTest(p.project, "ls");
    expect(untouched.json.updatedInput).toBeNull();
  });

  it("keel: an `if: shell(git push*)` hook spawns only for git push", async () => {
    const p = await trustedProject("keel");
    const push = await shellTest(p.project, "git add . && git push origin main");
    expect(push.code).toBe(2);
    expect(push.json.decision).toBe("block");
    expect(String(push.json.reason)).toContain("open a pull request");

    const status = await shellTest(p.project, "git status");
    expect(status.code).toBe(0);
    expect(status.json.runs).toEqual([]);
  });
});

describe("keel hooks test: model and effort", () => {
  it("the sample payload carries config.json's model and effort, and CLAUDE_EFFORT with it", async () => {
    const p = await project();
    const out = join(p.root, "seen.txt");
    await userSettings(p, {
      hooks: {
        PreToolUse: [
          {
            hooks: [
              {
                type: "command",
                command: `cat > "${out}"; printf '%s' "\${CLAUDE_EFFORT:--}" >> "${out}"`,
              },
            ],
          },
        ],
      },
    });
    await writeFile(
      join(p.keelHome, "config.json"),
      JSON.stringify({ model: "deepseek-v4-flash", effort: "low" }),
    );
    const r = await testJson(p.project, "PreToolUse");
    expect(r.code).toBe(0);
    const [payload, env] = (await readFile(out, "utf8")).split("\n");
    // low is what was asked; the model takes high, and hooks are told the level applied.
    expect(JSON.parse(payload ?? "{}")).toMatchObject({
      model: "deepseek-v4-flash",
      effort: { level: "high" },
    });
    expect(env).toBe("high");
  });
});

describe("keel hooks test: usage errors", () => {
  it("an unknown event lists the valid ones, exit 1, no stack trace", async () => {
    const p = await project();
    const r = await keel(["hooks", "test", "PreToolUze", "--cwd", p.project]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("unknown event");
    expect(r.stderr).toContain("PreToolUse");
    expect(r.stderr).toContain("SessionEnd");
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe("");
  });

  it("invalid --input JSON is a usage error", async () => {
    const p = await project();
    const r = await keel([
      "hooks",
      "test",
      "PreToolUse",
      "--input",
      "{command:",
      "--json",
      "--cwd",
      p.project,
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("--input is not valid JSON");
    expect(r.stdout).toBe("");
  });

  it("--tool on an event that is not about a tool is a usage error", async () => {
    const p = await project();
    const r = await keel(["hooks", "test", "Stop", "--tool", "shell", "--cwd", p.project]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("--tool only applies to tool events");
  });

  it("a --payload field of the wrong type names the field", async () => {
    const p = await project();
    const r = await keel([
      "hooks",
      "test",
      "SessionStart",
      "--payload",
      '{"source":"reboot"}',
      "--cwd",
      p.project,
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('"source"');
  });

  it("passes Stop payload fields from --payload to the hook", async () => {
    const p = await project();
    const script = join(p.project, "stop.sh");
    await writeFile(
      script,
      "#!/bin/sh\njq -e '.stop_hook_active == true' >/dev/null && exit 0\necho keep going >&2\nexit 2\n",
      { mode: 0o755 },
    );
    await userSettings(p, { hooks: { Stop: [{ hooks: [{ type: "command", command: script }] }] } });
    const first = await testJson(p.project, "Stop");
    expect(first.code).toBe(2);
    expect(first.json.decision).toBe("block");
    const again = await testJson(p.project, "Stop", "--payload", '{"stop_hook_active":true}');
    expect(again.code).toBe(0);
    expect(again.json.decision).toBe("pass");
  });
});

describe("keel hooks list / validate", () => {
  it("validate exits 1 on a malformed file with path:line:col, and other files still load", async () => {
    const p = await project("malformed");
    const r = await keel(["hooks", "validate", "--cwd", p.project]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/\.keel[/\\]settings\.json:\d+:\d+: error: /);

    const list = await keel(["hooks", "list", "--json", "--cwd", p.project]);
    expect(list.code).toBe(0);
    const doc = parseOnlyJson(list.stdout);
    expect(JSON.stringify(doc.hooks)).toContain("echo fine");
    expect(JSON.stringify(doc.problems)).toContain("settings.json");
  });

  it("validate exits 0 on good files", async () => {
    const p = await project("claude");
    const r = await keel(["hooks", "validate", "--cwd", p.project]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("ok: 1 hook");
  });

  it("list --json parses and labels every hook with its source, dialect and trust", async () => {
    const p = await project("claude");
    const r = await keel(["hooks", "list", "--json", "--cwd", p.project]);
    expect(r.code).toBe(0);
    const doc = parseOnlyJson(r.stdout);
    expect(doc.hooks).toMatchObject([
      {
        event: "PreToolUse",
        matcher: "Bash",
        trusted: false,
        active: true,
        source: { dialect: "claude", scope: "project" },
      },
    ]);
  });

  it("list prints every hook grouped by event within 80 columns on a terminal", async () => {
    const p = await project("keel");
    // A terminal's width (processOutput says 80 for a character device; piped output is not
    // wrapped: hooks-list-piped.test.ts).
    const r = { stdout: "" };
    const code = await runHooksList(
      { cwd: p.project },
      {
        stdout: (t) => {
          r.stdout += t;
        },
        stderr: () => {},
        width: () => 80,
      },
    );
    expect(code).toBe(0);
    expect(r.stdout).toContain("PreToolUse");
    expect(r.stdout).toContain("no-push.sh");
    expect(r.stdout).toContain("if shell(git push*)");
    expect(r.stdout).toContain("untrusted");
    for (const line of r.stdout.split("\n")) expect([...line].length).toBeLessThanOrEqual(80);
  });
});

describe("keel hooks --help", () => {
  it.each(["list", "validate", "trust", "untrust", "test", "stats"])(
    "%s --help exits 0",
    async (sub) => {
      const r = await keel(["hooks", sub, "--help"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`hooks ${sub}`);
      expect(r.stdout).toContain("--cwd");
    },
  );
});

describe("keel hooks test: prompt and agent hooks through --base-url", () => {
  let sim: Simulator | undefined;
  afterEach(async () => {
    await sim?.close();
    sim = undefined;
  });

  it("asks the model at --base-url and turns ok:false on PreToolUse into a deny", async () => {
    const p = await project();
    await userSettings(p, {
      hooks: {
        PreToolUse: [
          {
            matcher: "shell",
            hooks: [{ type: "prompt", prompt: "Is this command destructive? $ARGUMENTS" }],
          },
        ],
      },
    });
    sim = await startSimulator({
      script: [{ text: '{"ok": false, "reason": "it deletes the file system"}' }],
    });
    const r = await testJson(p.project, ...RM_RF, "--base-url", sim.url);
    expect(r.code).toBe(2);
    expect(r.json.decision).toBe("deny");
    expect(r.json.reason).toContain("it deletes the file system");
    expect(r.json.runs).toMatchObject([{ outcome: "block" }]);
    expect(sim.requests).toHaveLength(1);
    expect(sim.requests[0]?.rawBody).toContain("rm -rf /");
  });

  it("runs an agent hook's read-only sub-agent against --base-url", async () => {
    const p = await project();
    await userSettings(p, {
      hooks: {
        Stop: [{ hooks: [{ type: "agent", prompt: "Check that README.md exists.", maxTurns: 3 }] }],
      },
    });
    sim = await startSimulator({
      script: [
        { toolCalls: [{ name: "list_dir", arguments: { path: "." } }] },
        {
          toolCalls: [
            { name: VERDICT_TOOL, arguments: { ok: false, reason: "README.md is missing" } },
          ],
        },
      ],
    });
    const r = await testJson(p.project, "Stop", "--base-url", sim.url);
    expect(r.code).toBe(2);
    expect(r.json).toMatchObject({ decision: "block", reason: "README.md is missing" });
    expect(sim.requests).toHaveLength(2);
  });

  it("without an API key or --base-url a prompt hook warns instead of deciding", async () => {
    const p = await project();
    await userSettings(p, {
      hooks: { Stop: [{ hooks: [{ type: "prompt", prompt: "Are the tests green?" }] }] },
    });
    const saved = process.env.DEEPSEEK_API_KEY;
    delete process.env.DEEPSEEK_API_KEY;
    try {
      const r = await testJson(p.project, "Stop");
      expect(r.code).toBe(0);
      expect(r.json.decision).toBe("pass");
      expect(r.json.runs).toMatchObject([{ outcome: "warn" }]);
      const text = await keel(["hooks", "test", "Stop", "--cwd", p.project]);
      expect(text.stdout).toContain("no API key for prompt/agent hooks");
    } finally {
      if (saved !== undefined) process.env.DEEPSEEK_API_KEY = saved;
    }
  });

  it("rejects a --base-url that is not an http(s) URL", async () => {
    const p = await project();
    const r = await keel([
      "hooks",
      "test",
      "Stop",
      "--base-url",
      "localhost:1",
      "--cwd",
      p.project,
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("--base-url must be an http(s) URL");
  });
});

describe("keel hooks validate: missing executables", () => {
  it("reports a mistyped script path with path:line:col and exits 1", async () => {
    const p = await project();
    await mkdir(join(p.project, ".keel"), { recursive: true });
    await writeFile(
      join(p.project, ".keel", "settings.json"),
      `{\n  "hooks": {\n    "PreToolUse": [\n      { "matcher": "shell", "hooks": [{ "type": "command", "command": "./scripts/gaurd.sh" }] }\n    ]\n  }\n}\n`,
    );
    const r = await keel(["hooks", "validate", "--cwd", p.project]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/\.keel[/\\]settings\.json:4:\d+: error: .*gaurd\.sh/);
    const list = await keel(["hooks", "list", "--cwd", p.project]);
    expect(list.stdout).toContain("gaurd.sh");
    expect(list.stdout).toMatch(/! error: .*gaurd\.sh/);
    // Trusting still works, and points at the same error validate counts.
    const trust = await keel(["hooks", "trust", "--cwd", p.project]);
    expect(trust.code).toBe(0);
    expect(trust.stderr).toMatch(/\.keel[/\\]settings\.json:4:\d+: error: .*gaurd\.sh/);
    expect(trust.stderr).toContain("1 error, 0 warnings");
  });
});

/** Appends one run of the project's guard hook to the audit log, as `keel run` would. */
function recordRun(
  p: Sandbox,
  over: {
    hookId?: string;
    event?: string;
    command?: string;
    outcome?: string;
    durationMs?: number;
  },
  projectDir = p.project,
): void {
  const outcome = over.outcome ?? "pass";
  appendHookAudit({
    keelHome: p.keelHome,
    projectDir,
    run: {
      hookId: "h1",
      event: "PreToolUse",
      source: join(p.project, ".keel", "settings.json"),
      command: "./.keel/hooks/guard.sh",
      exitCode: outcome === "block" ? 2 : 0,
      durationMs: 1,
      startedAt: Date.now(),
      ...over,
      outcome,
    },
  });
}

describe("keel hooks stats", () => {
  it("summarizes this project's runs from the audit log", async () => {
    const p = await project();
    const run = (outcome: string, durationMs: number, projectDir = p.project) =>
      recordRun(p, { outcome, durationMs }, projectDir);
    run("pass", 10);
    run("block", 30);
    run("timeout", 60_000);
    run("pass", 5, join(p.root, "elsewhere"));

    const text = await keel(["hooks", "stats", "--cwd", p.project]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("guard.sh");
    expect(text.stdout).toMatch(/guard\.sh\s+3\s+1\s+0\s+0\s+1\s+/);
    for (const line of text.stdout.split("\n")) expect([...line].length).toBeLessThanOrEqual(80);

    const json = await keel(["hooks", "stats", "--json", "--cwd", p.project]);
    expect(parseOnlyJson(json.stdout).hooks).toMatchObject([
      { runs: 3, blocks: 1, timeouts: 1, maxMs: 60_000 },
    ]);
    const all = await keel(["hooks", "stats", "--all", "--json", "--cwd", p.project]);
    expect(parseOnlyJson(all.stdout).hooks).toMatchObject([{ runs: 4 }]);
  });

  it("lists events in lifecycle order and hooks in the order they first ran", async () => {
    const p = await project();
    const run = (hookId: string, event: string, command: string) =>
      recordRun(p, { hookId, event, command });
    run("hz", "UserPromptSubmit", "ups-hook");
    run("hb", "PreToolUse", "pre-second-id-first-run");
    run("ha", "PreToolUse", "pre-first-id-second-run");
    run("hc", "Stop", "stop-hook");
    const json = await keel(["hooks", "stats", "--json", "--cwd", p.project]);
    expect(parseOnlyJson(json.stdout).hooks).toMatchObject([
      { command: "ups-hook" },
      { command: "pre-second-id-first-run" },
      { command: "pre-first-id-second-run" },
      { command: "stop-hook" },
    ]);
  });

  it("says so when nothing was recorded", async () => {
    const p = await project();
    const r = await keel(["hooks", "stats", "--cwd", p.project]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("No hook runs recorded");
  });
});

describe("keel hooks test: async hooks", () => {
  it("waits for async hooks and shows what they deliver with the next turn", async () => {
    const p = await project();
    const command = `echo '{"systemMessage": "audit uploaded"}'`;
    await userSettings(p, {
      hooks: {
        PostToolUse: [{ matcher: "shell", hooks: [{ type: "command", command, async: true }] }],
      },
    });
    const text = await keel(["hooks", "test", "PostToolUse", "--cwd", p.project]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("Async hooks");
    expect(text.stdout).toContain("next turn, for the user: audit uploaded");
    const r = await testJson(p.project, "PostToolUse");
    expect(r.json.runs).toMatchObject([{ outcome: "pass", command }]);
  });
});
