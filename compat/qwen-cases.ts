/**
 * The Qwen Code differential cases: Claude Code's table (cases.ts) with Qwen's tool names in
 * the matchers, minus the Claude-only rows, plus the rows only Qwen needs. The same
 * `.qwen/settings.json` goes to Qwen Code and to Keel.
 */
import { CASES, PROMPT_BLOCK_EXIT_AND_RESULT } from "./cases.js";
import type { CompatCase, HookSpec } from "./types.js";

/** Claude tool name → Qwen Code tool name. */
const QWEN_TOOL_NAMES: Readonly<Record<string, string>> = {
  Bash: "run_shell_command",
  Write: "write_file",
  Read: "read_file",
  Edit: "edit",
};

/** A Claude matcher with Qwen's tool names (`Bash|Write` → `run_shell_command|write_file`). */
export function qwenMatcher(matcher: string): string {
  return matcher.replace(/\b(Bash|Write|Read|Edit)\b/g, (name) => QWEN_TOOL_NAMES[name] ?? name);
}

/** Claude rows that say nothing about Qwen Code (Claude's own env file and transcript format). */
const CLAUDE_ONLY = new Set([
  "CLAUDE_ENV_FILE exports reach later shell calls",
  "transcript_path parsed by a Stop hook",
  "SessionEnd matcher on reason",
  // Qwen 0.15's first Stop already said stop_hook_active: true; the Qwen rows below block once
  // by a file, which holds for every release.
  "Stop block continues once",
  "Stop decision:block JSON",
]);

/**
 * Differences Keel keeps on purpose against Qwen Code (docs/hooks.md, Qwen Code section), by
 * case name; a Claude row's own allowances do not carry over.
 */
const QWEN_DELIBERATE: Readonly<Record<string, CompatCase["deliberate"]>> = {
  "lifecycle: every event of a plain tool turn": {
    why: "Qwen runs no SessionEnd hooks in -p and fires UserPromptSubmit again with an empty prompt after each tool result; Keel does neither",
    allows: ["hooks fired"],
  },
  "UserPromptSubmit exit 2 blocks the prompt": PROMPT_BLOCK_EXIT_AND_RESULT,
  "UserPromptSubmit decision:block": PROMPT_BLOCK_EXIT_AND_RESULT,
  "UserPromptSubmit continue:false": {
    why: "Keel's result says why the prompt was stopped (as Claude Code's does); Qwen -p prints nothing",
    allows: ['result "" ≠ "Operation stopped by hook: not today"'],
  },
  "PreToolUse ask (headless)": {
    why: "the tool is refused in both, Keel in its own words; Keel first asks PermissionRequest hooks (they exist to answer where no one can), Qwen 0.24 -p refuses without them",
    allows: ["model saw (request 2)", "hooks fired [pre] ≠ [obs-PermissionRequest,pre]"],
  },
  "PreToolUse updatedInput": {
    why: "Qwen -p ignores updatedInput (its ACP path and its docs apply it); Keel applies it and fires PreToolUse again for the rewritten call, as for Claude Code hooks",
    allows: [
      "post payload tool_input.command",
      "file out.txt",
      "hooks fired [post,pre] ≠ [post,pre,pre#2]",
    ],
  },
  "PreToolUse additionalContext": {
    why: "Qwen drops PreToolUse additionalContext; Keel gives it to the model",
    allows: ["model saw (request 2)"],
  },
  "two PreToolUse hooks: both contexts, in order": {
    why: "Qwen drops PreToolUse additionalContext; Keel gives it to the model",
    allows: ["model saw (request 2)"],
  },
  "PreToolUse + PostToolUse context: one message after the result": {
    why: "Qwen drops PreToolUse additionalContext; Keel gives it to the model",
    allows: ["model saw (request 2)"],
  },
  "two calls in one answer: context after both results": {
    why: "Qwen appends each PostToolUse context to its own result, Keel sends one hook message after both results; and Qwen 0.24.4 lost the second parallel command's output (`echo two` → `Output: (empty)`), which Keel reports",
    allows: ["model saw (request 2)", 'post#2 payload tool_response.returnDisplay: "" ≠ "two"'],
  },
  "PreToolUse continue:false": {
    why: "continue:false stops Keel's run; Qwen reads it as a block and carries on",
    allows: ['result "done" ≠ ""', "model requests 2 ≠ 1", "model saw (request 2)"],
  },
  "PreToolUse timeout": {
    why: "a gating hook that times out blocks (Qwen fails open)",
    allows: ["model saw (request 2)", "file out.txt missing"],
  },
  "PostToolUse continue:false": {
    why: "continue:false stops Keel's run; Qwen gives the model stopReason as the tool result and carries on",
    allows: [
      'result "after" ≠ ""',
      "hooks fired [obs-Stop,post] ≠ [post]",
      "model requests 2 ≠ 1",
      "model saw (request 2)",
    ],
  },
};

/** Qwen's Stop rows: the words around the reason, and -p's joined result. */
const STOP_DELIBERATE: CompatCase["deliberate"] = {
  why: "Qwen sends the bare reason and its -p result joins every answer; Keel words the reason as a Stop hook's and answers with the last text",
  allows: ['result "firstsecond" ≠ "second"', "model saw (request 2)"],
};

function forQwen(c: CompatCase): CompatCase {
  const hooks = c.hooks.map((h): HookSpec => {
    const out: HookSpec = { ...h };
    if (h.matcher !== undefined) out.matcher = qwenMatcher(h.matcher);
    return out;
  });
  const deliberate = QWEN_DELIBERATE[c.name];
  const { deliberate: _claudes, ...rest } = c;
  return { ...rest, hooks, ...(deliberate ? { deliberate } : {}) };
}

/** Blocks the first Stop only (Qwen 0.15 sent `stop_hook_active: true` on every Stop). */
const blockFirstStop = (answer: string) =>
  `[ -f "$base/stopped" ] && exit 0; : > "$base/stopped"; ${answer}`;

const QWEN_ONLY: CompatCase[] = [
  {
    name: "Stop exit 2 continues once",
    prompt: "finish",
    hooks: [
      {
        id: "stop",
        event: "Stop",
        answer: blockFirstStop("echo 'run the tests first' >&2; exit 2"),
      },
    ],
    turns: [{ text: "first" }, { text: "second" }],
    deliberate: STOP_DELIBERATE,
  },
  {
    name: "Stop decision:block JSON continues once",
    prompt: "finish",
    hooks: [
      {
        id: "stop",
        event: "Stop",
        answer: blockFirstStop(
          `echo '${JSON.stringify({ decision: "block", reason: "one more thing" })}'`,
        ),
      },
    ],
    turns: [{ text: "first" }, { text: "second" }],
    deliberate: STOP_DELIBERATE,
  },
  {
    name: "timeout in seconds (0.5 = half a second)",
    prompt: "run it",
    hooks: [
      {
        id: "post",
        event: "PostToolUse",
        timeout: 0.5,
        answer: `sleep 1; echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "too late" } })}'`,
      },
    ],
    turns: [{ calls: [{ tool: "Bash", input: { command: "echo ran" } }] }, { text: "done" }],
  },
  {
    name: "matchers on Qwen and Claude tool names",
    prompt: "run it",
    hooks: ["Bash", "Shell", "run_shell", "run_shell_command|edit", "^run_shell_command$"].map(
      (matcher, i) => ({ id: `q${i}`, event: "PreToolUse", matcher }),
    ),
    turns: [{ calls: [{ tool: "Bash", input: { command: "echo hi" } }] }, { text: "done" }],
  },
];

/** Every Qwen Code case, in table order. */
export const QWEN_CASES: CompatCase[] = [
  ...CASES.filter((c) => !CLAUDE_ONLY.has(c.name)).map(forQwen),
  ...QWEN_ONLY,
];
