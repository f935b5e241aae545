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
const cmd = (command: string) => ({ type: "command", command });

describe("loading every source", () => {
  it("reads keel, claude, reasonix, tutorial and cagent files in configuration order", async () => {
    w.json("keel/settings.json", {
      hooks: { PreToolUse: [{ matcher: "shell", hooks: [cmd("keel-user")] }] },
      compat: { cagent: "agent.yaml" },
    });
    w.json("project/.keel/settings.json", {
      hooks: { PreToolUse: [{ hooks: [cmd("keel-project")] }] },
    });
    w.json("project/.keel/settings.local.json", {
      hooks: { Stop: [{ hooks: [cmd("keel-local")] }] },
    });
    w.json("home/.claude/settings.json", {
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [cmd("claude-user")] }] },
    });
    w.json("project/.claude/settings.json", {
      permissions: {},
      hooks: { PostToolUse: [{ matcher: "Write|Edit", hooks: [cmd("claude-project")] }] },
    });
    w.json("project/.reasonix/settings.json", {
      hooks: { PreToolUse: [{ match: "run_command", command: "reasonix-project", timeout: 1500 }] },
    });
    w.json("home/.reasonix/settings.json", { hooks: { Stop: [{ command: "reasonix-user" }] } });
    w.json("project/.hooks.json", {
      hooks: { PreToolUse: [{ matcher: "bash", command: "tutorial" }] },
    });
    w.write(
      "project/agent.yaml",
      [
        "agents:",
        "  root:",
        "    model: openai/gpt-4o",
        "    hooks:",
        "      pre_tool_use:",
        '        - matcher: "shell|edit_file"',
        "          hooks:",
        "            - type: command",
        "              command: cagent-pre",
        "              timeout: 30",
        "      session_start:",
        "        - type: command",
        "          command: cagent-start",
        "",
      ].join("\n"),
    );
    const loaded = await load();
    expect(loaded.problems).toEqual([]);
    const seen = loaded.hooks.map((h) => [
      h.handler.type === "command" ? h.handler.command : "",
      h.source.dialect,
      h.source.scope,
      h.event,
    ]);
    expect(seen).toEqual([
      ["keel-user", "keel", "user", "PreToolUse"],
      ["keel-project", "keel", "project", "PreToolUse"],
      ["keel-local", "keel", "local", "Stop"],
      ["claude-user", "claude", "user", "PreToolUse"],
      ["claude-project", "claude", "project", "PostToolUse"],
      ["reasonix-project", "reasonix", "project", "PreToolUse"],
      // A file naming no tool is read as Reasonix 1.x, the current release.
      ["reasonix-user", "reasonix1", "user", "Stop"],
      ["tutorial", "tutorial", "project", "PreToolUse"],
      ["cagent-pre", "cagent", "project", "PreToolUse"],
      ["cagent-start", "cagent", "project", "SessionStart"],
    ]);
    expect(loaded.hooks.map((h) => h.order)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // Reasonix timeouts are milliseconds.
    expect(loaded.hooks[5]?.handler.timeout).toBe(1.5);
    expect(loaded.hooks[8]?.matcher).toBe("shell|edit_file");
    expect(loaded.hooks[0]?.trusted).toBe(true);
    expect(loaded.hooks[1]?.trusted).toBe(false);
  });

  it("accepts the flat Reasonix form and seed-004 field names in native files", async () => {
    w.json("project/.keel/settings.json", {
      hooks: {
        PreToolUse: [
          {
            match: "write_file",
            mode: "command",
            command: 'lint --file "$tool_input_path"',
            condition: "Write(src/**/*.ts)",
            timeout: 10,
          },
        ],
        PostToolUse: [{ mode: "http", url: "http://127.0.0.1:9/audit", async_mode: true }],
      },
    });
    const { hooks, problems } = await load();
    expect(problems).toEqual([]);
    expect(hooks[0]).toMatchObject({
      matcher: "write_file",
      handler: { type: "command", if: "Write(src/**/*.ts)", timeout: 10 },
    });
    expect(hooks[1]).toMatchObject({
      handler: { type: "http", async: true, url: "http://127.0.0.1:9/audit" },
    });
  });

  it("accepts seed-004's array of hooks with an event field", async () => {
    w.json("project/.keel/settings.json", {
      hooks: [{ event: "PreToolUse", matcher: "Write", mode: "command", command: "x" }],
    });
    const { hooks, problems } = await load();
    expect(problems).toEqual([]);
    expect(hooks[0]).toMatchObject({ event: "PreToolUse", matcher: "Write" });
  });

  it("compat switches sources off", async () => {
    w.json("project/.keel/settings.json", { compat: { claude: false, tutorial: false } });
    w.json("project/.claude/settings.json", { hooks: { Stop: [{ hooks: [cmd("c")] }] } });
    w.json("project/.hooks.json", { hooks: { Stop: [{ command: "t" }] } });
    w.json("project/.reasonix/settings.json", { hooks: { Stop: [{ command: "r" }] } });
    const { hooks } = await load();
    expect(hooks.map((h) => h.source.dialect)).toEqual(["reasonix1"]);
  });

  it("a project file switches off only the project's sources, never your user-level ones", async () => {
    w.json("project/.keel/settings.json", {
      compat: { claude: false, reasonix: false, cagent: false },
    });
    w.json("home/.claude/settings.json", { hooks: { Stop: [{ hooks: [cmd("user-claude")] }] } });
    w.json("project/.claude/settings.json", { hooks: { Stop: [{ hooks: [cmd("proj-claude")] }] } });
    w.json("home/.reasonix/settings.json", { hooks: { Stop: [{ command: "user-reasonix" }] } });
    w.json("project/.reasonix/settings.json", { hooks: { Stop: [{ command: "proj-reasonix" }] } });
    w.write(
      "home/a.yaml",
      "agents:\n  r:\n    hooks:\n      session_end:\n        - command: user-cagent\n",
    );
    w.json("keel/settings.json", { compat: { cagent: "~/a.yaml" } });
    const labels = async () =>
      (await load()).hooks.map((h) => (h.handler.type === "command" ? h.handler.command : ""));
    expect(await labels()).toEqual(["user-claude", "user-reasonix", "user-cagent"]);
    // User-level switches turn a format off everywhere; a project `true` cannot turn it back on.
    w.json("keel/settings.json", { compat: { claude: false, reasonix: false, cagent: false } });
    w.json("project/.keel/settings.json", {
      compat: { claude: true, reasonix: true, cagent: "~/a.yaml" },
    });
    expect(await labels()).toEqual([]);
  });
});

describe("disableAllHooks", () => {
  const commands = async () =>
    (await load()).hooks.map((h) => [
      h.handler.type === "command" ? h.handler.command : "",
      h.active,
    ]);
  const everywhere = () => {
    w.json("keel/settings.json", { hooks: { Stop: [{ hooks: [cmd("keel-user")] }] } });
    w.json("project/.keel/settings.json", { hooks: { Stop: [{ hooks: [cmd("keel-proj")] }] } });
    w.json("home/.claude/settings.json", { hooks: { Stop: [{ hooks: [cmd("claude-user")] }] } });
    w.json("project/.claude/settings.json", {
      hooks: { Stop: [{ hooks: [cmd("claude-proj")] }] },
    });
    w.json("project/.hooks.json", { hooks: { Stop: [{ command: "tutorial" }] } });
  };

  it("in ~/.keel/settings.json it turns every hook off, each listed with why", async () => {
    everywhere();
    w.json("keel/settings.json", {
      disableAllHooks: true,
      hooks: { Stop: [{ hooks: [cmd("keel-user")] }] },
    });
    const loaded = await load();
    expect(loaded.hooks.every((h) => !h.active)).toBe(true);
    expect(loaded.hooks[1]?.problems[0]).toMatchObject({
      severity: "warning",
      message: expect.stringContaining(`"disableAllHooks": true in ${w.keelHome}/settings.json`),
      line: expect.any(Number),
    });
  });

  it("in a project's Keel settings it turns off the project's hooks, not yours", async () => {
    everywhere();
    w.json("project/.keel/settings.local.json", { disableAllHooks: true });
    expect(await commands()).toEqual([
      ["keel-user", true],
      ["keel-proj", false],
      ["claude-user", true],
      ["claude-proj", false],
      ["tutorial", false],
    ]);
    const loaded = await load();
    expect(loaded.hooks[1]?.problems[0]?.message).toBe(
      'disabled by "disableAllHooks": true in .keel/settings.local.json; hook inactive',
    );
  });

  it("in Claude Code settings it turns off Claude Code hooks: all from ~/.claude, the project's from .claude", async () => {
    everywhere();
    w.json("project/.claude/settings.local.json", { disableAllHooks: true });
    expect(await commands()).toEqual([
      ["keel-user", true],
      ["keel-proj", true],
      ["claude-user", true],
      ["claude-proj", false],
      ["tutorial", true],
    ]);
    w.json("home/.claude/settings.json", {
      disableAllHooks: true,
      hooks: { Stop: [{ hooks: [cmd("claude-user")] }] },
    });
    expect(await commands()).toEqual([
      ["keel-user", true],
      ["keel-proj", true],
      ["claude-user", false],
      ["claude-proj", false],
      ["tutorial", true],
    ]);
  });

  it("false re-enables nothing, and a disabled hook never runs", async () => {
    w.json("keel/settings.json", { disableAllHooks: true });
    w.json("project/.keel/settings.json", {
      disableAllHooks: false,
      hooks: { Stop: [{ hooks: [cmd("echo ran")] }] },
    });
    expect(await commands()).toEqual([["echo ran", false]]);
    const engine = await createHookEngine(worldOptions(w));
    await engine.trust();
    const d = await engine.fire({
      event: "Stop",
      payload: buildPayload("Stop", { projectDir: w.project }),
    });
    expect(d.runs).toEqual([]);
  });
});

describe("malformed sources", () => {
  it("a JSON syntax error is a problem with line and column; other files still load", async () => {
    const path = w.write(
      "project/.claude/settings.json",
      '{\n  "hooks": {\n    "Stop": [\n  }\n}\n',
    );
    w.json("project/.keel/settings.json", { hooks: { Stop: [{ hooks: [cmd("ok")] }] } });
    const { hooks, problems } = await load();
    expect(hooks.map((h) => h.source.dialect)).toEqual(["keel"]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ severity: "error", path, line: 4, column: 3 });
    expect(problems[0]?.message).toMatch(/invalid JSON/);
  });

  it("a wrong field type names the field with its line and column; siblings load", async () => {
    const path = w.write(
      "project/.keel/settings.json",
      '{\n  "hooks": {\n    "PreToolUse": [\n      { "hooks": [ { "type": "command", "command": "a", "timeout": "ten" } ] },\n      { "hooks": [ { "type": "command", "command": "b" } ] }\n    ]\n  }\n}\n',
    );
    const { hooks, problems } = await load();
    expect(hooks.map((h) => (h.handler.type === "command" ? h.handler.command : ""))).toEqual([
      "b",
    ]);
    expect(problems[0]).toMatchObject({
      path,
      field: "hooks.PreToolUse[0].hooks[0].timeout",
      line: 4,
      column: 68,
    });
  });

  it("unknown events are problems", async () => {
    w.json("project/.keel/settings.json", { hooks: { PreToolUs: [{ hooks: [cmd("x")] }] } });
    w.json("project/.claude/settings.json", {
      hooks: {
        TeammateNap: [{ hooks: [cmd("x")] }],
        TeammateIdle: [{ hooks: [cmd("y")] }],
        // Events Claude Code added by 2.1.332: known (never fired), so no "unknown event".
        DirectoryAdded: [{ hooks: [cmd("z")] }],
        PreModelSwitch: [{ hooks: [cmd("z")] }],
        PostModelSwitch: [{ hooks: [cmd("z")] }],
        PreSkillShellCommand: [{ hooks: [cmd("z")] }],
      },
    });
    const { problems, hooks } = await load();
    // TeammateIdle is a Claude Code event Keel knows but never fires: no problem at load
    // (`keel hooks validate` lists it once), and the hook is kept.
    expect(problems.map((p) => [p.severity, p.field, p.message])).toEqual([
      [
        "error",
        "hooks.PreToolUs",
        'unknown hook event "PreToolUs"; these hooks never run; did you mean "PreToolUse"?',
      ],
      ["warning", "hooks.TeammateNap", 'unknown hook event "TeammateNap"; these hooks never run'],
    ]);
    expect(hooks.map((h) => h.event).sort()).toEqual([
      "DirectoryAdded",
      "PostModelSwitch",
      "PreModelSwitch",
      "PreSkillShellCommand",
      "TeammateIdle",
    ]);
  });

  it("a malformed matcher is reported where the matcher is written, for every handler of its group", async () => {
    w.write(
      "project/.claude/settings.json",
      [
        "{",
        '  "hooks": {',
        '    "PostToolUse": [',
        "      {",
        '        "matcher": "Edit|Write(",',
        '        "hooks": [',
        '          { "type": "command", "command": "true" },',
        '          { "type": "command", "command": "false" }',
        "        ]",
        "      }",
        "    ]",
        "  }",
        "}",
      ].join("\n"),
    );
    const { hooks } = await load();
    expect(hooks.map((h) => h.active)).toEqual([false, false]);
    for (const h of hooks) {
      expect(h.problems).toEqual([
        expect.objectContaining({
          severity: "error",
          field: "hooks.PostToolUse[0].matcher",
          line: 5,
          column: 20,
          message: expect.stringMatching(/invalid matcher regex/),
        }),
      ]);
    }
    // The handlers themselves are located at their own lines.
    expect(hooks.map((h) => h.location?.line)).toEqual([7, 8]);
  });

  it("flat, Reasonix and cagent matchers are located at their own keys", async () => {
    w.write(
      "project/.keel/settings.json",
      '{"compat": {"cagent": "agent.yaml"}, "hooks": {"PreToolUse": [\n {"command": "x",\n  "matcher": "[oops"}]}}',
    );
    w.write(
      "project/.reasonix/settings.json",
      '{"hooks": {"PreToolUse": [\n {"command": "y",\n\n  "match": "(bad"}]}}',
    );
    w.write(
      "project/agent.yaml",
      'agents:\n  root:\n    hooks:\n      pre_tool_use:\n        - matcher: "*("\n          hooks:\n            - type: command\n              command: z\n',
    );
    const { hooks } = await load();
    const at = hooks.map((h) => [h.source.dialect, h.problems[0]?.field, h.problems[0]?.line]);
    expect(at).toEqual([
      ["keel", "hooks.PreToolUse[0].matcher", 3],
      ["reasonix1", "hooks.PreToolUse[0].match", 4],
      ["cagent", "agents.root.hooks.pre_tool_use[0].matcher", 5],
    ]);
  });

  it("a matcher the dialect's own agent ignores is a warning, and the hook runs on every firing", async () => {
    w.json("project/.claude/settings.json", {
      hooks: { UserPromptSubmit: [{ matcher: "deploy", hooks: [cmd("claude-ups")] }] },
    });
    w.json("project/.reasonix/settings.json", {
      hooks: { UserPromptSubmit: [{ match: "deploy", command: "reasonix-ups" }] },
    });
    w.json("project/.keel/settings.json", {
      hooks: { Stop: [{ matcher: "x", hooks: [cmd("keel-stop")] }] },
    });
    const { hooks } = await load();
    expect(hooks.map((h) => [h.active, h.problems.map((p) => [p.severity, p.message])])).toEqual([
      [
        true,
        [["warning", "Stop has no matcher field; matcher ignored, the hook runs on every Stop"]],
      ],
      [
        true,
        [
          [
            "warning",
            "Claude Code ignores matchers on UserPromptSubmit; matcher ignored, the hook runs on every UserPromptSubmit",
          ],
        ],
      ],
      [
        true,
        [
          [
            "warning",
            "Reasonix 1.x ignores matchers on UserPromptSubmit; matcher ignored, the hook runs on every UserPromptSubmit",
          ],
        ],
      ],
    ]);
  });

  it("a cagent YAML error carries line and column", async () => {
    w.json("project/.keel/settings.json", { compat: { cagent: "bad.yaml" } });
    const path = w.write(
      "project/bad.yaml",
      "agents:\n  root:\n    hooks:\n      pre_tool_use: [\n",
    );
    const { problems } = await load();
    expect(problems[0]).toMatchObject({ path, severity: "error" });
    expect(problems[0]?.line).toBeGreaterThan(0);
    expect(problems[0]?.column).toBeGreaterThan(0);
    w.write("project/bad.yaml", "agents:\n\troot: x\n");
    const tabs = (await load()).problems[0];
    expect(tabs).toMatchObject({ line: 2, column: 1 });
    expect(tabs?.message).toBe(
      "invalid YAML: Tabs are not allowed as indentation at line 2, column 1",
    );
  });

  it("unknown cagent event keys and handlers without a command are problems", async () => {
    w.json("project/.keel/settings.json", { compat: { cagent: ["a.yaml"] } });
    w.write(
      "project/a.yaml",
      "agents:\n  root:\n    hooks:\n      pre_tool_usage: []\n      session_end:\n        - type: command\n",
    );
    const { problems } = await load();
    expect(problems.map((p) => p.field)).toEqual([
      "agents.root.hooks.pre_tool_usage",
      "agents.root.hooks.session_end[0].command",
    ]);
    expect(problems[1]?.line).toBe(6);
  });

  it("a missing cagent file named in settings is a problem", async () => {
    w.json("project/.keel/settings.json", { compat: { cagent: "nope.yaml" } });
    const { problems } = await load();
    expect(problems[0]?.message).toMatch(/does not exist/);
  });

  it("a Reasonix timeout that looks like seconds is a warning (Reasonix timeouts are milliseconds)", async () => {
    w.json("project/.reasonix/settings.json", {
      hooks: {
        PreToolUse: [
          { command: "a", timeout: 5 },
          { command: "b", timeout: 5000 },
        ],
      },
    });
    const { hooks } = await load();
    expect(hooks.map((h) => [h.handler.timeout, h.problems.map((p) => p.message)])).toEqual([
      [0.005, ["timeout 5 is in milliseconds in .reasonix files; did you mean 5000?"]],
      [5, []],
    ]);
  });

  it("reasonix entries without a command are skipped with a warning", async () => {
    w.json("project/.reasonix/settings.json", {
      hooks: { PreToolUse: [{ match: "x" }, { command: "ok" }] },
    });
    const { hooks, problems } = await load();
    expect(hooks).toHaveLength(1);
    expect(problems[0]).toMatchObject({ severity: "warning", field: "hooks.PreToolUse[0]" });
  });
});

describe("cagent file scope", () => {
  it("a file outside the project is user-level only when user settings name it", async () => {
    w.write(
      "home/agents/a.yaml",
      "agents:\n  root:\n    hooks:\n      session_start:\n        - type: command\n          command: x\n",
    );
    w.json("keel/settings.json", { compat: { cagent: "~/agents/a.yaml" } });
    expect((await load()).hooks[0]?.source.scope).toBe("user");
    w.json("keel/settings.json", {});
    w.json("project/.keel/settings.json", { compat: { cagent: "~/agents/a.yaml" } });
    expect((await load()).hooks[0]?.source.scope).toBe("project");
  });
});

describe("user-level settings", () => {
  it("allowPrivateNetworks is honoured only from user-level settings", async () => {
    w.json("project/.keel/settings.json", { allowPrivateNetworks: true });
    let loaded = await load();
    expect(loaded.settings.allowPrivateNetworks).toBe(false);
    expect(loaded.problems[0]?.message).toMatch(/only honoured in user-level/);
    w.json("keel/settings.json", { allowPrivateNetworks: true });
    loaded = await load();
    expect(loaded.settings.allowPrivateNetworks).toBe(true);
  });

  it("KEEL_HOME replaces ~/.keel", () => {
    const paths = resolveHookPaths({
      projectDir: w.project,
      homeDir: w.home,
      env: { KEEL_HOME: w.keelHome },
    });
    expect(paths.keelHome).toBe(w.keelHome);
    expect(resolveHookPaths({ projectDir: w.project, homeDir: w.home, env: {} }).keelHome).toBe(
      `${w.home}/.keel`,
    );
  });
});
