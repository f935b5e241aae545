/**
 * Config-reading bounds (issue 8), each tried as the attack: a handler nested 5,000 levels
 * deep, a YAML alias bomb, a FIFO named like a settings file, a timeout that overflows Node's
 * timers, and a project naming the user's own cagent file. Plus the one-line JSON error and
 * the Reasonix milliseconds note (issue 12).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadHooks, resolveHookPaths } from "../../src/hooks/config/load.js";
import { createHookEngine } from "../../src/hooks/engine.js";
import { buildPayload } from "../../src/hooks/payload.js";
import { makeWorld, type World, worldOptions } from "./helpers.js";

let w: World;
beforeEach(() => {
  w = makeWorld();
});
afterEach(() => w.cleanup());

const load = () => loadHooks(resolveHookPaths(worldOptions(w)));
const pre = () =>
  buildPayload("PreToolUse", { projectDir: w.project, tool: "shell", input: { command: "ls" } });

describe("nesting depth", () => {
  it("a handler field nested 5,000 deep is a listed problem, and the engine (trust hash) survives", async () => {
    const deep = `${"[".repeat(5000)}1${"]".repeat(5000)}`;
    w.write(
      "project/.claude/settings.json",
      `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"true","payloadTemplate":${deep}}]}]}}`,
    );
    const loaded = await load();
    expect(loaded.problems).toEqual([
      expect.objectContaining({
        severity: "error",
        message: expect.stringMatching(/nested deeper than 64 levels at 1:\d+; file not read/),
      }),
    ]);
    const engine = await createHookEngine(worldOptions(w));
    expect(engine.listing().problems).toHaveLength(1);
    const d = await engine.fire({ event: "PreToolUse", payload: pre() });
    expect(d.decision).toBe("pass");
  });

  it("deep nesting in a cagent YAML file is a problem too", async () => {
    w.json("keel/settings.json", { compat: { cagent: "~/agent.yaml" } });
    w.write("home/agent.yaml", `agents: ${"[".repeat(5000)}${"]".repeat(5000)}\n`);
    const loaded = await load();
    expect(loaded.problems.map((p) => p.message)).toEqual([
      expect.stringContaining("nested deeper than 64 levels"),
    ]);
  });
});

describe("YAML aliases", () => {
  it("an alias bomb in a cagent file is refused with a problem", async () => {
    const lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i <= 9; i++) {
      const prev = `*a${i - 1}`;
      lines.push(`a${i}: &a${i} [${Array(10).fill(prev).join(",")}]`);
    }
    lines.push("agents: {root: {hooks: {session_start: [{type: command, command: '*a9'}]}}}");
    w.json("keel/settings.json", { compat: { cagent: "~/bomb.yaml" } });
    w.write("home/bomb.yaml", `${lines.join("\n")}\n`);
    const started = Date.now();
    const loaded = await load();
    expect(loaded.problems).toEqual([
      expect.objectContaining({
        severity: "error",
        message: expect.stringMatching(/invalid YAML: .*alias/i),
      }),
    ]);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe("regular files only", () => {
  it("a FIFO as a settings file is a problem, not a hang", async () => {
    mkdirSync(join(w.project, ".claude"), { recursive: true });
    execFileSync("mkfifo", [join(w.project, ".claude", "settings.json")]);
    const loaded = await load();
    expect(loaded.problems).toEqual([
      expect.objectContaining({ message: expect.stringContaining("not a regular file") }),
    ]);
    // Detecting changes on disk must not hang on it either.
    const engine = await createHookEngine(worldOptions(w));
    expect(await engine.changedOnDisk()).toBe(false);
  });
});

describe("timeouts", () => {
  it('"timeout": 2200000 is clamped with a warning and the hook is not killed at once', async () => {
    w.json("keel/settings.json", {
      hooks: {
        PreToolUse: [
          {
            hooks: [{ type: "command", command: "sleep 0.3; echo slow-ok >&2", timeout: 2200000 }],
          },
        ],
      },
    });
    const engine = await createHookEngine(worldOptions(w));
    const hook = engine.listing().hooks[0];
    expect(hook?.handler.timeout).toBe(86400);
    expect(hook?.problems.map((p) => p.message)).toContainEqual(
      expect.stringContaining("clamped to 86400s"),
    );
    const d = await engine.fire({ event: "PreToolUse", payload: pre() });
    expect(d.runs[0]).toMatchObject({ outcome: "pass", exitCode: 0 });
  });

  it("a Reasonix millisecond timeout that fires says so", async () => {
    w.json("home/.reasonix/settings.json", {
      hooks: { PostToolUse: [{ command: "sleep 5", timeout: 10 }] },
    });
    const engine = await createHookEngine(worldOptions(w));
    const d = await engine.fire({
      event: "PostToolUse",
      payload: buildPayload("PostToolUse", { projectDir: w.project, tool: "shell" }),
    });
    expect(d.runs[0]?.outcome).toBe("timeout");
    expect(d.runs[0]?.message).toContain(
      "timed out after 10 ms — Reasonix 1.x timeouts are milliseconds",
    );
  });
});

describe("a user-level source stays user-level", () => {
  it("a project naming the user's own cagent file does not make it an untrusted project hook", async () => {
    const guard = w.write(
      "home/guard.sh",
      '#!/bin/sh\ncat >/dev/null\necho "guard says no" >&2\nexit 2\n',
      { executable: true },
    );
    w.write(
      "home/guard.yaml",
      `agents:\n  root:\n    hooks:\n      pre_tool_use:\n        - matcher: shell\n          hooks:\n            - type: command\n              command: ${guard}\n`,
    );
    w.json("keel/settings.json", { compat: { cagent: "~/guard.yaml" } });
    w.json("project/.keel/settings.json", { compat: { cagent: join(w.home, "guard.yaml") } });
    const engine = await createHookEngine(worldOptions(w));
    const hook = engine.listing().hooks.find((h) => h.source.dialect === "cagent");
    expect(hook?.source.scope).toBe("user");
    expect(hook?.trusted).toBe(true);
    const d = await engine.fire({ event: "PreToolUse", payload: pre() });
    expect(d.decision).toBe("block");
    expect(d.reason).toContain("guard says no");
  });
});

describe("invalid JSON in one line", () => {
  it.each([
    ['{\n  "hooks": {\n    "Stop": [],\n  }\n}', "invalid JSON: trailing comma at 4:3"],
    ['{\n  "hooks": {\n    "Stop": [1,]\n  }\n}', "invalid JSON: trailing comma at 3:16"],
    [
      '{\n  "hooks": {}\n  "x": 1\n}',
      "invalid JSON: expected ',' or '}' (a missing comma?) at 3:3",
    ],
    [
      "{'hooks': {}}",
      "invalid JSON: unexpected single quote (JSON strings use double quotes) at 1:2",
    ],
    ['{"hooks": {', "invalid JSON: unexpected end of file at 1:12"],
  ])("%j → %s", async (text, message) => {
    w.write("project/.claude/settings.json", text);
    const { problems } = await load();
    expect(problems.map((p) => p.message)).toEqual([message]);
    expect(message).not.toContain("\n");
  });
});
