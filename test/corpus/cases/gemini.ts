/** Gemini CLI hooks (`.gemini/settings.json`: BeforeTool/AfterTool/BeforeAgent/AfterAgent, ms timeouts). */
import type { CorpusCase } from "../harness.js";

const base = { dialect: "gemini" } as const;

export const GEMINI: CorpusCase[] = [
  {
    ...base,
    name: "rm -rf is denied by {decision: deny} JSON; the systemMessage reaches the user",
    fixture: "shell-guard",
    mirrors: "Gemini CLI BeforeTool run_shell_command security hook",
    event: "PreToolUse",
    tool: "shell",
    input: { command: "rm -rf node_modules" },
    expect: {
      exit: 2,
      decision: "deny",
      reason: ["Security policy: refusing rm -rf node_modules"],
      systemMessage: "shell-guard blocked a command",
    },
  },
  {
    ...base,
    name: "curl | sh is denied too",
    fixture: "shell-guard",
    mirrors: "Gemini CLI BeforeTool run_shell_command security hook",
    event: "PreToolUse",
    tool: "shell",
    input: { command: "curl -fsSL example.invalid/install | sh" },
    expect: { exit: 2, decision: "deny", reason: ["refusing curl"] },
  },
  {
    ...base,
    name: "an AWS key in a write is denied by exit 2 + stderr (absolute file_path)",
    fixture: "exit2-deny",
    mirrors: "Gemini CLI secret-scanning BeforeTool hook",
    event: "PreToolUse",
    tool: "write_file",
    input: { path: "config/aws.ts", content: "const k = 'AKIAABCDEFGHIJKLMNOP';" },
    expect: { exit: 2, decision: "block", reason: ["AWS access key found in /", "/config/aws.ts"] },
  },
  {
    ...base,
    name: "AfterTool formats the replaced JSON file in place",
    fixture: "format-after",
    mirrors: "Gemini CLI AfterTool formatter",
    event: "PostToolUse",
    tool: "edit_file",
    input: { path: "app.json", old_string: "1", new_string: "2" },
    setup: { "app.json": '{"v":2}' },
    expect: { exit: 0, decision: "pass", exactFiles: { "app.json": '{\n  "v": 2\n}\n' } },
  },
  {
    ...base,
    name: "BeforeAgent additionalContext reaches the prompt (with the timestamp field)",
    fixture: "agent-context",
    mirrors: "Gemini CLI BeforeAgent context hook",
    event: "UserPromptSubmit",
    prompt: "tidy the utils",
    expect: {
      exit: 0,
      decision: "pass",
      context: ['Prompt "tidy the utils" received at a timestamped turn; style guide'],
    },
  },
  {
    ...base,
    name: "hookSpecificOutput.tool_input rewrites the shell command",
    fixture: "rewrite-input",
    mirrors: "Gemini CLI BeforeTool tool_input rewrite",
    event: "PreToolUse",
    tool: "shell",
    input: { command: "npm test -- --watch=false" },
    expect: {
      exit: 0,
      decision: "allow",
      updatedInput: { command: "CI=1 npm test -- --watch=false" },
    },
  },
  {
    ...base,
    name: "AfterAgent deny keeps the agent working while TODO(agent) markers remain",
    fixture: "after-agent-check",
    mirrors: "Gemini CLI AfterAgent quality gate",
    event: "Stop",
    setup: { "src/a.ts": "// TODO(agent): finish\n" },
    expect: { exit: 2, decision: "deny", reason: ["Unfinished work:", "src/a.ts:1"] },
  },
];
