/** Codex hooks (`.codex/hooks.json` and `[[hooks.Stop]]` in `.codex/config.toml`: Claude's shape
 *  with Codex's tools — Bash `{command}`, file edits as apply_patch patch text — and rules). */
import type { CorpusCase } from "../harness.js";

const base = { dialect: "codex" } as const;

export const CODEX: CorpusCase[] = [
  {
    ...base,
    name: "rm -rf is denied with permissionDecision and a reason",
    fixture: "shell-guard",
    mirrors: "Codex PreToolUse Bash guard (python, tool_input.command)",
    event: "PreToolUse",
    tool: "shell",
    input: { command: "rm -rf build" },
    expect: { exit: 2, decision: "deny", reason: ["recursive force delete is not allowed"] },
  },
  {
    ...base,
    name: "a harmless command passes the same guard",
    fixture: "shell-guard",
    mirrors: "Codex PreToolUse Bash guard (python, tool_input.command)",
    event: "PreToolUse",
    tool: "shell",
    input: { command: "ls -la" },
    expect: { exit: 0, decision: "pass" },
  },
  {
    ...base,
    name: "writing .env is blocked through the Edit|Write aliases of apply_patch",
    fixture: "patch-guard",
    mirrors: "Codex file-protection hook reading file names from the patch",
    event: "PreToolUse",
    tool: "write_file",
    input: { path: ".env", content: "TOKEN=x\n" },
    expect: { exit: 2, decision: "block", reason: ["apply_patch may not touch .env"] },
  },
  {
    ...base,
    name: "an edit elsewhere passes the patch guard",
    fixture: "patch-guard",
    mirrors: "Codex file-protection hook reading file names from the patch",
    event: "PreToolUse",
    tool: "edit_file",
    input: { path: "src/a.ts", old_string: "a", new_string: "b" },
    expect: { exit: 0, decision: "pass" },
  },
  {
    ...base,
    name: "a deploy prompt gets the release rule as context",
    fixture: "prompt-context",
    mirrors: "Codex UserPromptSubmit additionalContext hook",
    event: "UserPromptSubmit",
    prompt: "deploy the api",
    expect: { exit: 0, decision: "pass", context: ["make release"] },
  },
  {
    ...base,
    name: "a Stop hook in config.toml keeps the agent working until CHANGELOG.md exists",
    fixture: "stop-gate",
    mirrors: "Codex Stop decision:block hook (TOML tables)",
    event: "Stop",
    expect: { exit: 2, decision: "block", reason: ["Add a CHANGELOG.md entry"] },
  },
  {
    ...base,
    name: "an edit is logged as apply_patch with its file and a string tool_response",
    fixture: "patch-log",
    mirrors: "Codex PostToolUse apply_patch audit log",
    event: "PostToolUse",
    tool: "edit_file",
    input: { path: "src/a.ts", old_string: "a", new_string: "b" },
    expect: {
      exit: 0,
      decision: "pass",
      files: { ".codex/patches.log": ["apply_patch src/a.ts response=string"] },
    },
  },
];
