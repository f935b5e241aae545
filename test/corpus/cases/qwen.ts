/** Qwen Code hooks (`.qwen/settings.json`: Claude's settings shape with Qwen 0.15's tools and rules,
 *  and 0.24's command timeouts: seconds, 1000 or more read as milliseconds). */
import type { CorpusCase } from "../harness.js";

const base = { dialect: "qwen" } as const;

export const QWEN: CorpusCase[] = [
  {
    ...base,
    name: "a 0.24 timeout of 20 is seconds: the slow check answers in time and blocks",
    fixture: "timeout-seconds",
    mirrors: "Qwen Code 0.24 PreToolUse check with a timeout in seconds",
    event: "PreToolUse",
    tool: "shell",
    input: { command: "ls" },
    expect: {
      exit: 2,
      decision: "block",
      outcomes: ["block"],
      reason: ["policy service says no (answered in time)"],
    },
  },
  {
    ...base,
    name: "a 0.15 timeout of 1000 is milliseconds: the hanging check times out after a second",
    fixture: "timeout-legacy-ms",
    mirrors: "Qwen Code 0.15 PreToolUse check with a timeout in milliseconds",
    event: "PreToolUse",
    tool: "shell",
    input: { command: "ls" },
    expect: { exit: 2, decision: "block", outcomes: ["timeout"] },
  },
  {
    ...base,
    name: "docker system prune is denied with permissionDecision",
    fixture: "shell-deny",
    mirrors: "Qwen Code PreToolUse run_shell_command guard",
    event: "PreToolUse",
    tool: "shell",
    input: { command: "docker system prune -af" },
    expect: { exit: 2, decision: "deny", reason: ["docker system prune removes shared caches"] },
  },
  {
    ...base,
    name: "an edit is logged under Qwen's tool name with the absolute file_path",
    fixture: "edit-log",
    mirrors: "Qwen Code PostToolUse change tracker",
    event: "PostToolUse",
    tool: "edit_file",
    input: { path: "src/a.ts", old_string: "a", new_string: "b" },
    expect: {
      exit: 0,
      decision: "pass",
      files: { ".qwen/changed-files.txt": ["edit /", "/src/a.ts\n"] },
    },
  },
  {
    ...base,
    name: "a glossary entry is added as additionalContext",
    fixture: "prompt-context",
    mirrors: "Qwen Code UserPromptSubmit glossary hook",
    event: "UserPromptSubmit",
    prompt: "add a column to the ledger",
    expect: { exit: 0, decision: "pass", context: ["ledger = the append-only table"] },
  },
  {
    ...base,
    name: "Stop is blocked by exit 2 until the CHANGELOG is updated",
    fixture: "stop-gate",
    mirrors: "Qwen Code checklist Stop hook",
    event: "Stop",
    expect: { exit: 2, decision: "block", reason: ["Add a CHANGELOG entry"] },
  },
  {
    ...base,
    name: "reading .env through file_path (absolute) is refused",
    fixture: "read-guard",
    mirrors: "Qwen Code read_file credentials guard",
    event: "PreToolUse",
    tool: "read_file",
    input: { path: ".env" },
    expect: { exit: 2, decision: "block", reason: ["/.env holds credentials"] },
  },
];
