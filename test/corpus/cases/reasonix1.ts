/** Reasonix 1.x (Go) hooks: same `.reasonix/settings.json`, 1.x tool names, Claude-style JSON. */
import type { CorpusCase } from "../harness.js";

const base = { dialect: "reasonix1" } as const;

export const REASONIX1: CorpusCase[] = [
  {
    ...base,
    name: "rm -rf on the bash tool is denied with Claude-style JSON",
    fixture: "bash-deny",
    mirrors: "Reasonix 1.x PreToolUse bash guard",
    event: "PreToolUse",
    tool: "shell",
    input: { command: "rm -rf ./tmp" },
    expect: { exit: 2, decision: "deny", reason: ["rm -rf refused: rm -rf ./tmp"] },
  },
  {
    ...base,
    name: "an edit_file call's JSON file is formatted via .tool_input.path",
    fixture: "edit-format",
    mirrors: "Reasonix 1.x PostToolUse formatter",
    event: "PostToolUse",
    tool: "edit_file",
    input: { path: "cfg.json", old_string: "1", new_string: "2" },
    setup: { "cfg.json": '{"n":2}' },
    expect: { exit: 0, decision: "pass", exactFiles: { "cfg.json": '{\n  "n": 2\n}\n' } },
  },
  {
    ...base,
    name: "UserPromptSubmit additionalContext JSON reaches the prompt",
    fixture: "prompt-context",
    mirrors: "Reasonix 1.x UserPromptSubmit context hook",
    event: "UserPromptSubmit",
    prompt: "continue",
    expect: { exit: 0, decision: "pass", context: ["the payments refactor is half done"] },
  },
];
