/** `.hooks.json` tutorial-format hooks (HOOK_* environment, exit 1 blocks, exit 2 injects). */
import type { CorpusCase } from "../harness.js";

const base = { dialect: "tutorial" } as const;

export const TUTORIAL: CorpusCase[] = [
  {
    ...base,
    name: "a write outside the project is blocked by exit 1",
    fixture: "no-write-outside",
    mirrors: "tutorial write-scope guard",
    event: "PreToolUse",
    tool: "write_file",
    input: { path: "../other/x.txt", content: "x" },
    expect: {
      exit: 2,
      decision: "block",
      reason: ["writes must stay inside the project: ../other/x.txt"],
    },
  },
  {
    ...base,
    name: "a write inside the project passes",
    fixture: "no-write-outside",
    mirrors: "tutorial write-scope guard",
    event: "PreToolUse",
    tool: "write_file",
    input: { path: "notes/x.txt", content: "x" },
    expect: { exit: 0, decision: "pass", outcomes: ["pass"] },
  },
  {
    ...base,
    name: "exit 2 injects stderr as a message and continues",
    fixture: "test-reminder",
    mirrors: "tutorial run-the-tests reminder",
    event: "PostToolUse",
    tool: "edit_file",
    input: { path: "src/app.ts", old_string: "a", new_string: "b" },
    expect: { exit: 0, decision: "pass", context: ["You edited src/app.ts; run the test suite"] },
  },
  {
    ...base,
    name: "top-level updatedInput adds a flag",
    fixture: "add-flag",
    mirrors: "tutorial updatedInput rewrite",
    event: "PreToolUse",
    tool: "shell",
    input: { command: "npm outdated" },
    expect: { exit: 0, decision: "pass", updatedInput: { command: "npm outdated --no-color" } },
  },
  {
    ...base,
    name: "the SessionStart banner becomes context",
    fixture: "session-banner",
    mirrors: "tutorial SessionStart banner",
    event: "SessionStart",
    expect: {
      exit: 0,
      decision: "pass",
      context: ["Session started in project; branch notes: release freeze until Friday"],
    },
  },
  {
    ...base,
    name: "HOOK_TOOL_OUTPUT is logged after a shell call",
    fixture: "output-logger",
    mirrors: "tutorial tool-output logger",
    event: "PostToolUse",
    tool: "shell",
    input: { command: "echo hello" },
    expect: {
      exit: 0,
      decision: "pass",
      files: { "tool-output.log": ["PostToolUse bash: ", "hello"] },
    },
  },
  {
    ...base,
    name: "top-level additionalContext names the file's owner",
    fixture: "read-context",
    mirrors: "tutorial additionalContext hook (CODEOWNERS lookup)",
    event: "PreToolUse",
    tool: "read_file",
    input: { path: "src/billing/invoice.ts" },
    expect: {
      exit: 0,
      decision: "pass",
      context: ["src/billing/invoice.ts is owned by @payments"],
    },
  },
];
