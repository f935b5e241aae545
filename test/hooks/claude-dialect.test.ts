/**
 * The Claude Code dialect where Claude Code 2.1.332's own hook schemas (read from its binary,
 * docs/hooks.md "Claude Code 2.1.332 schema check") say more than compat:claude's headless cases
 * reach: SessionEnd's `prompt_input_exit`, and the exec form (`command` the program, `args` its
 * arguments, Claude Code 2.1.139 on), `onFailure: "block"`. Real hook processes through the engine.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadHooks, resolveHookPaths } from "../../src/hooks/config/load.js";
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

/** A user-level Claude Code hook on `event` recording its stdin. */
function userHook(name: string, event: string, group: Record<string, unknown> = {}) {
  const log = join(w.root, `${name}.json`);
  const command = w.write(`hooks/${name}.sh`, `#!/bin/sh\ncat > "${log}"\n`, {
    executable: true,
  });
  w.json("home/.claude/settings.json", {
    hooks: { [event]: [{ ...group, hooks: [{ type: "command", command }] }] },
  });
  return { seen: () => JSON.parse(readFileSync(log, "utf8")) as Record<string, unknown> };
}

describe("Claude Code dialect (2.1.332 schema)", () => {
  it("names a person leaving the prompt prompt_input_exit, and a matcher on it fires", async () => {
    const end = userHook("e", "SessionEnd", { matcher: "prompt_input_exit" });
    const d = await (await engine()).fire({
      event: "SessionEnd",
      payload: buildPayload("SessionEnd", { projectDir: w.project, reason: "exit" }),
    });
    expect(d.runs).toHaveLength(1);
    expect(end.seen().reason).toBe("prompt_input_exit");
  });

  it("keeps the reasons Claude Code shares with Keel (a headless run ends with other)", async () => {
    const end = userHook("e", "SessionEnd", { matcher: "other" });
    const d = await (await engine()).fire({
      event: "SessionEnd",
      payload: buildPayload("SessionEnd", { projectDir: w.project, reason: "other" }),
    });
    expect(d.runs).toHaveLength(1);
    expect(end.seen().reason).toBe("other");
  });

  it("runs the exec form as Claude Code does: command is the program, args its arguments", async () => {
    w.json("home/.claude/settings.json", {
      hooks: {
        PreToolUse: [
          {
            hooks: [
              { type: "command", command: "printf", args: ["%s|", "a b", "$HOME", ""] },
              { type: "command", command: "/bin/echo", args: [] },
            ],
          },
        ],
      },
    });
    const d = await (await engine()).fire({
      event: "PreToolUse",
      payload: buildPayload("PreToolUse", { projectDir: w.project, input: { command: "ls" } }),
    });
    // No shell: `$HOME` stays text, and `command` was not dropped in favour of args[0].
    expect(d.runs.map((r) => r.stdout).sort()).toEqual(["\n", "a b|$HOME||"]);
  });

  it("warns when an exec-form command holds spaces; an empty exec form is an error", async () => {
    w.json("home/.claude/settings.json", {
      hooks: {
        PreToolUse: [{ hooks: [{ type: "command", command: "node check.js", args: ["-q"] }] }],
        Stop: [{ hooks: [{ type: "command", args: [] }] }],
      },
    });
    const loaded = await loadHooks(resolveHookPaths(worldOptions(w)));
    const pre = loaded.hooks.find((h) => h.event === "PreToolUse");
    expect(pre?.handler).toMatchObject({ args: ["node check.js", "-q"] });
    expect(pre?.problems.map((p) => p.message).join("\n")).toMatch(
      /has both "args" and spaces in "command"/,
    );
    expect(loaded.hooks.some((h) => h.event === "Stop")).toBe(false);
    expect(loaded.problems.map((p) => p.message).join("\n")).toMatch(
      /args: empty; name the program to run first/,
    );
  });

  describe('onFailure: "block"', () => {
    /** A PreToolUse (or `event`) Claude hook running `body`, with `extra` handler fields. */
    async function fireWith(body: string, extra: Record<string, unknown>, event = "PreToolUse") {
      const command = w.write("hooks/guard.sh", `#!/bin/sh\n${body}\n`, { executable: true });
      w.json("home/.claude/settings.json", {
        hooks: { [event]: [{ hooks: [{ type: "command", command, timeout: 1, ...extra }] }] },
      });
      const payload =
        event === "Stop"
          ? buildPayload("Stop", { projectDir: w.project, lastAssistantMessage: "done" })
          : buildPayload("PreToolUse", { projectDir: w.project, input: { command: "ls" } });
      return (await engine()).fire({ event: event as "PreToolUse", payload });
    }

    it.each([
      ["exit 1", "exit 1"],
      ["a missing interpreter", "exec /nonexistent/python3"],
      ["invalid JSON", "echo '{not: json}'"],
      ["a crash", "kill -9 $$"],
    ])("denies the tool call after %s", async (_, body) => {
      const d = await fireWith(body, { onFailure: "block" });
      expect(d.decision).toBe("deny");
      expect(d.reason).toMatch(/^failed; blocking because onFailure is "block"/);
    });

    it("fails open without it, or with continue (Claude Code's default)", async () => {
      for (const extra of [{}, { onFailure: "continue" }]) {
        const d = await fireWith("exit 1", extra);
        expect(d.decision).not.toBe("deny");
      }
    });

    it("keeps what the hook decided: exit 0 passes, exit 1 with a JSON deny keeps its reason", async () => {
      expect((await fireWith("exit 0", { onFailure: "block" })).decision).not.toBe("deny");
      const deny = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"mine"}}'; exit 1`;
      const d = await fireWith(deny, { onFailure: "block" });
      expect(d.decision).toBe("deny");
      expect(d.reason).toBe("mine");
    });

    it("does nothing on Stop, where a block makes the agent go on", async () => {
      const d = await fireWith("exit 1", { onFailure: "block" }, "Stop");
      expect(d.decision).not.toBe("block");
    });
  });
});

describe("Claude Code dialect: PermissionRequest permission_suggestions", () => {
  it("names the suggested rules' tools as Claude Code does; MCP tools keep their names", async () => {
    const perm = userHook("p", "PermissionRequest");
    const rule = (toolName: string, ruleContent?: string) => ({
      type: "addRules" as const,
      rules: [{ toolName, ...(ruleContent === undefined ? {} : { ruleContent }) }],
      behavior: "allow" as const,
      destination: "session" as const,
    });
    const suggestions = [
      rule("shell", "npm test"),
      rule("web_fetch", "domain:example.com"),
      rule("edit_file"),
      rule("mcp__db__query"),
    ];
    const payload = {
      ...buildPayload("PermissionRequest", { projectDir: w.project, input: { command: "ls" } }),
      permission_suggestions: suggestions,
    };
    await (await engine()).fire({ event: "PermissionRequest", payload });
    expect(perm.seen().permission_suggestions).toEqual([
      rule("Bash", "npm test"),
      rule("WebFetch", "domain:example.com"),
      rule("Edit"),
      rule("mcp__db__query"),
    ]);
  });
});
