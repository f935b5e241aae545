/** Authoring help: typos in hook files are warnings naming the right field; `--tool` mapping. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mapTestTool } from "../../src/cli/commands/hooks/test-tool.js";
import { loadHooks, resolveHookPaths } from "../../src/hooks/config/load.js";
import { makeWorld, type World, worldOptions } from "./helpers.js";

let w: World;
beforeEach(() => {
  w = makeWorld();
});
afterEach(() => w.cleanup());

const load = () => loadHooks(resolveHookPaths(worldOptions(w)));
const messages = async () => {
  const l = await load();
  return [...l.problems, ...l.hooks.flatMap((h) => h.problems)].map((p) => p.message);
};

describe("unknown fields are warnings that suggest the right one", () => {
  it.each([
    [
      "matcher in a Reasonix file",
      "home/.reasonix/settings.json",
      { hooks: { PreToolUse: [{ matcher: "run_command", command: "true" }] } },
      'unknown field "matcher" ignored (without a matcher the hook runs on every event); did you mean "match"?',
    ],
    [
      "matchers in a Claude group",
      "home/.claude/settings.json",
      {
        hooks: {
          PreToolUse: [{ matchers: "Bash", hooks: [{ type: "command", command: "true" }] }],
        },
      },
      'unknown field "matchers" ignored (without a matcher the hook runs on every event); did you mean "matcher"?',
    ],
    [
      "a misspelt handler field",
      "keel/settings.json",
      { hooks: { Stop: [{ hooks: [{ type: "command", command: "true", timout: 5 }] }] } },
      'unknown field "timout" ignored; did you mean "timeout"?',
    ],
    [
      "a Claude entry without its hooks wrapper",
      "home/.claude/settings.json",
      { hooks: { PreToolUse: [{ matcher: "Bash", type: "command", command: "true" }] } },
      'Claude Code expects {"matcher": …, "hooks": [{"type": "command", …}]} here; Keel reads this flat entry, Claude Code would ignore it',
    ],
  ])("%s", async (_name, file, value, message) => {
    w.json(file, value);
    expect(await messages()).toContain(message);
  });

  it("a correct file has no warnings", async () => {
    w.json("home/.claude/settings.json", {
      hooks: {
        PreToolUse: [
          { matcher: "Bash", hooks: [{ type: "command", command: "true", timeout: 5 }] },
        ],
      },
    });
    w.json("home/.reasonix/settings.json", {
      hooks: { PreToolUse: [{ match: "run_command", command: "true" }] },
    });
    expect(await messages()).toEqual([]);
  });
});

describe("keel hooks test --tool maps any dialect's name", () => {
  it.each([
    ["Bash", '{"command":"ls"}', "shell", { command: "ls" }, /Claude Code.*is Keel's shell/],
    ["run_shell_command", undefined, "shell", undefined, /Gemini CLI/],
    ["Read", '{"file_path":"a.txt"}', "read_file", { path: "a.txt" }, /Keel's read_file/],
    ["shell", '{"comand":"ls"}', "shell", { comand: "ls" }, /no input field "comand"/],
    ["Bsh", undefined, "Bsh", undefined, /unknown tool "Bsh"/],
  ] as const)("%s", (tool, input, keel, mappedInput, note) => {
    const m = mapTestTool(tool, input);
    expect(m.tool).toBe(keel);
    if (mappedInput !== undefined) expect(JSON.parse(m.input ?? "{}")).toEqual(mappedInput);
    expect(m.notes.join("\n")).toMatch(note);
  });
});
