/** Reasonix 1.x (Go) hooks: same `.reasonix/settings.json`, 1.x tool names, Claude-style JSON. */
import type { CorpusCase } from "../harness.js";

const base = { dialect: "reasonix1" } as const;

export const REASONIX1: CorpusCase[] = [
  {
    ...base,
    name: "rm -rf on the bash tool is denied by exit 2 (1.x reads toolArgs; JSON is not read)",
    fixture: "bash-deny",
    mirrors: "Reasonix 1.x PreToolUse bash guard",
    event: "PreToolUse",
    tool: "shell",
    input: { command: "rm -rf ./tmp" },
    expect: { exit: 2, decision: "block", reason: ["rm -rf refused: rm -rf ./tmp"] },
  },
  {
    ...base,
    name: "an edit_file call's JSON file is formatted via .toolArgs.path",
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
    // Measured on Reasonix 1.38 (npm run compat:reasonix): neither plain stdout nor JSON
    // additionalContext of a UserPromptSubmit hook reaches the model; Keel matches that.
    name: "UserPromptSubmit stdout is not context in 1.x (as the real 1.38)",
    fixture: "prompt-context",
    mirrors: "Reasonix 1.x UserPromptSubmit context hook",
    event: "UserPromptSubmit",
    prompt: "continue",
    expect: { exit: 0, decision: "pass", noContext: true },
  },
];
