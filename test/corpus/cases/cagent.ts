/** docker-agent / cagent YAML hooks (named by `compat.cagent` in `.keel/settings.json`). */
import type { CorpusCase } from "../harness.js";

const base = { dialect: "cagent" } as const;

export const CAGENT: CorpusCase[] = [
  {
    ...base,
    name: "sudo is refused via .tool_input.cmd",
    fixture: "sudo-guard",
    mirrors: "cagent example sudo pre_tool_use hook",
    event: "PreToolUse",
    tool: "shell",
    input: { command: "sudo apt-get install jq" },
    expect: { exit: 2, decision: "block", reason: ["no sudo in this environment"] },
  },
  {
    ...base,
    name: "a payload with a backslash still reaches jq intact and passes",
    fixture: "sudo-guard",
    mirrors: "cagent example sudo pre_tool_use hook",
    event: "PreToolUse",
    tool: "shell",
    input: { command: "printf 'a\\tb\\n'" },
    expect: { exit: 0, decision: "pass", outcomes: ["pass"] },
  },
  {
    ...base,
    name: "terraform apply is rewritten to terraform plan via updated_input",
    fixture: "dry-run-rewrite",
    mirrors: "cagent updated_input rewrite hook",
    event: "PreToolUse",
    tool: "shell",
    input: { command: "terraform apply -auto-approve" },
    expect: {
      exit: 0,
      decision: "allow",
      updatedInput: { command: "terraform plan -auto-approve" },
    },
  },
  {
    ...base,
    name: "post_tool_use audit sees snake_case event and cagent's cmd",
    fixture: "audit-log",
    mirrors: "cagent jq audit post_tool_use hook",
    event: "PostToolUse",
    tool: "shell",
    input: { command: "make build" },
    expect: {
      exit: 0,
      decision: "pass",
      files: { "audit.jsonl": ['"tool":"shell"', '"event":"post_tool_use"', '"cmd":"make build"'] },
    },
  },
  {
    ...base,
    name: "session_start stdout becomes context for the agent",
    fixture: "session-start-context",
    mirrors: "cagent session_start reminder hook",
    event: "SessionStart",
    expect: {
      exit: 0,
      decision: "pass",
      context: ["Remember: run the tests before you finish. (session started from startup)"],
    },
  },
  {
    ...base,
    name: "a read-only agent's hook denies writes with snake_case JSON",
    fixture: "json-deny",
    mirrors: "cagent read-only reviewer pre_tool_use hook",
    event: "PreToolUse",
    tool: "write_file",
    input: { path: "src/x.ts", content: "x" },
    expect: {
      exit: 2,
      decision: "deny",
      reason: ["the reviewer agent is read-only (write_file src/x.ts)"],
    },
  },
  {
    ...base,
    name: "on_user_input (Keel's Notification) rings the notifier",
    fixture: "user-input-notify",
    mirrors: "cagent on_user_input desktop notifier",
    event: "Notification",
    expect: {
      exit: 0,
      decision: "pass",
      files: { "notifications.log": ["[on_user_input] agent waiting: ", "permission"] },
    },
  },
  {
    ...base,
    name: "with SHELL=/bin/bash, the echo|jq guard holds on a command containing a backslash",
    fixture: "echo-jq-guard",
    mirrors: 'docker-agent example echo "$INPUT" | jq guard',
    event: "PreToolUse",
    tool: "shell",
    input: { command: "grep 'TODO\\|FIXME' -r src; rm -rf build" },
    env: { SHELL: "/bin/bash" },
    expect: {
      exit: 2,
      decision: "block",
      reason: ["blocked: grep 'TODO\\|FIXME' -r src; rm -rf build"],
    },
  },
];
