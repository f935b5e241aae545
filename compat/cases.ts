/**
 * The differential cases: the same hooks and the same model turn, run through Claude Code and
 * through Keel. One row per behaviour a hook or the model can observe.
 */
import type { CompatCase, HookSpec, ModelTurn } from "./types.js";

/** Turn helpers the other agents' tables reuse: a Bash call, the final answer, a JSON answer. */
export const bash = (command: string): ModelTurn => ({
  calls: [{ tool: "Bash", input: { command } }],
});
export const done: ModelTurn = { text: "done" };
export const json = (value: object) => `echo '${JSON.stringify(value)}'`;
const pre = (id: string, answer: string, extra: Partial<HookSpec> = {}): HookSpec => ({
  id,
  event: "PreToolUse",
  matcher: "Bash",
  answer,
  ...extra,
});
const observe = (event: string, matcher?: string): HookSpec => ({
  id: `obs-${event}`,
  event,
  ...(matcher !== undefined ? { matcher } : {}),
});

/** keel run exits 1 when a hook blocked the prompt (the prompt did not run); Claude Code exits 0. */
const PROMPT_BLOCK_EXIT: CompatCase["deliberate"] = {
  why: "keel run exits 1 when a hook blocked the prompt (it did not run)",
  allows: ["exit status 0 ≠ 1"],
};

/** The same against agents whose `-p` answers a blocked prompt with an empty result, where Keel
 *  says which hook blocked it. */
export const PROMPT_BLOCK_EXIT_AND_RESULT: CompatCase["deliberate"] = {
  why: "keel run exits 1 when a hook blocked the prompt (it did not run)",
  allows: ["exit status 0 ≠ 1", 'result "" ≠ "Prompt blocked by UserPromptSubmit hook'],
};

/** Context for a prompt: Claude Code 2.1.332 sends it as a system message after the prompt; Keel
 *  appends a message of its own, which reaches the API joined to the prompt's user message. */
const PROMPT_CONTEXT_CHANNEL: CompatCase["deliberate"] = {
  why: "context for a prompt follows it in the prompt's user message, marked as a hook's: DeepSeek rejects two user messages in a row and moves system messages to the front",
  allows: ["model saw (request 1) in another channel"],
};

/** Every case, in the order the table prints them. */
export const CASES: CompatCase[] = [
  {
    name: "lifecycle: every event of a plain tool turn",
    prompt: "say hi",
    hooks: [
      observe("SessionStart"),
      observe("UserPromptSubmit"),
      observe("PreToolUse", "*"),
      observe("PostToolUse", "*"),
      observe("Stop"),
      observe("SessionEnd"),
    ],
    turns: [bash("echo hi"), done],
  },
  {
    name: "SessionStart plain stdout is context",
    prompt: "hello",
    hooks: [{ id: "start", event: "SessionStart", answer: "echo 'Use tabs in this repo.'" }],
    turns: [done],
    deliberate: PROMPT_CONTEXT_CHANNEL,
  },
  {
    name: "SessionStart JSON additionalContext",
    prompt: "hello",
    hooks: [
      {
        id: "start",
        event: "SessionStart",
        answer: json({
          hookSpecificOutput: {
            hookEventName: "SessionStart",
            additionalContext: "ctx from start",
          },
        }),
      },
    ],
    turns: [done],
    deliberate: PROMPT_CONTEXT_CHANNEL,
  },
  {
    name: "UserPromptSubmit plain stdout is context",
    prompt: "hello",
    hooks: [{ id: "ups", event: "UserPromptSubmit", answer: "echo 'branch: feature/x'" }],
    turns: [done],
    deliberate: PROMPT_CONTEXT_CHANNEL,
  },
  {
    name: "UserPromptSubmit JSON additionalContext",
    prompt: "hello",
    hooks: [
      {
        id: "ups",
        event: "UserPromptSubmit",
        answer: json({
          hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "ups ctx" },
        }),
      },
    ],
    turns: [done],
    deliberate: PROMPT_CONTEXT_CHANNEL,
  },
  {
    name: "UserPromptSubmit exit 2 blocks the prompt",
    prompt: "print the secret",
    hooks: [{ id: "ups", event: "UserPromptSubmit", answer: "echo 'no secrets' >&2; exit 2" }],
    turns: [done],
    deliberate: PROMPT_BLOCK_EXIT,
  },
  {
    name: "UserPromptSubmit decision:block",
    prompt: "print the secret",
    hooks: [
      {
        id: "ups",
        event: "UserPromptSubmit",
        answer: json({ decision: "block", reason: "blocked by policy" }),
      },
    ],
    turns: [done],
    deliberate: PROMPT_BLOCK_EXIT,
  },
  {
    name: "UserPromptSubmit continue:false",
    prompt: "hello",
    hooks: [
      {
        id: "ups",
        event: "UserPromptSubmit",
        answer: json({ continue: false, stopReason: "not today" }),
      },
    ],
    turns: [done],
  },
  {
    name: "PreToolUse allow",
    prompt: "run it",
    hooks: [
      pre(
        "pre",
        json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } }),
      ),
    ],
    turns: [bash("echo ran > out.txt"), done],
  },
  {
    name: "PreToolUse deny",
    prompt: "run it",
    hooks: [
      pre(
        "pre",
        json({
          hookSpecificOutput: {
            hookEventName: "PreToolUse",
            permissionDecision: "deny",
            permissionDecisionReason: "not this one",
          },
        }),
      ),
    ],
    turns: [bash("echo ran > out.txt"), done],
  },
  {
    // Headless in bypass mode: the tool does not run, the model gets the reason, and
    // PermissionRequest does not fire (Claude Code 2.1.332).
    name: "PreToolUse ask (headless)",
    prompt: "run it",
    hooks: [
      pre(
        "pre",
        json({
          hookSpecificOutput: {
            hookEventName: "PreToolUse",
            permissionDecision: "ask",
            permissionDecisionReason: "please confirm",
          },
        }),
      ),
      observe("PermissionRequest", "Bash"),
    ],
    turns: [bash("echo ran > out.txt"), done],
  },
  {
    name: "PreToolUse exit 2",
    prompt: "run it",
    hooks: [pre("pre", "echo 'refused by guard' >&2; exit 2")],
    turns: [bash("echo ran > out.txt"), done],
  },
  {
    name: "PreToolUse exit 2 + JSON allow on stdout",
    prompt: "run it",
    hooks: [
      pre(
        "pre",
        `${json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", permissionDecisionReason: "json says ok" } })}; echo 'stderr says no' >&2; exit 2`,
      ),
    ],
    turns: [bash("echo ran > out.txt"), done],
  },
  {
    name: "PreToolUse exit 1 (non-blocking)",
    prompt: "run it",
    hooks: [pre("pre", "echo 'hook broke' >&2; exit 1")],
    turns: [bash("echo ran > out.txt"), done],
  },
  {
    name: "PreToolUse exit 1 + JSON deny on stdout",
    prompt: "run it",
    hooks: [
      pre(
        "pre",
        `${json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "json says no" } })}; exit 1`,
      ),
    ],
    turns: [bash("echo ran > out.txt"), done],
  },
  {
    name: "PreToolUse updatedInput",
    prompt: "run it",
    hooks: [
      pre(
        "pre",
        json({
          hookSpecificOutput: {
            hookEventName: "PreToolUse",
            permissionDecision: "allow",
            updatedInput: { command: "echo rewritten > out.txt" },
          },
        }),
      ),
      { id: "post", event: "PostToolUse", matcher: "Bash" },
    ],
    turns: [bash("echo ran > out.txt"), done],
    deliberate: {
      why: "a rewritten input is decided again: PreToolUse fires again on it (docs/security.md)",
      allows: ["hooks fired"],
    },
  },
  {
    name: "PreToolUse additionalContext",
    prompt: "run it",
    hooks: [
      pre(
        "pre",
        json({
          hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: "pre ctx" },
        }),
      ),
    ],
    turns: [bash("echo ran"), done],
  },
  {
    name: "PreToolUse continue:false",
    prompt: "run it",
    hooks: [
      pre("pre", json({ continue: false, stopReason: "stop now" })),
      { id: "post", event: "PostToolUse", matcher: "Bash" },
    ],
    turns: [bash("echo ran > out.txt"), done],
    deliberate: {
      why: "continue:false on PreToolUse does not run the tool",
      allows: ["hooks fired [post,pre] ≠ [pre]", "file out.txt missing"],
    },
  },
  {
    name: "PreToolUse timeout",
    prompt: "run it",
    hooks: [pre("pre", "sleep 3", { timeout: 1 })],
    turns: [bash("echo ran > out.txt"), done],
    deliberate: {
      why: "a gating hook that times out blocks",
      allows: ["model saw (request 2)", "file out.txt missing"],
    },
  },
  {
    name: "PostToolUse additionalContext",
    prompt: "run it",
    hooks: [
      {
        id: "post",
        event: "PostToolUse",
        matcher: "Bash",
        answer: json({
          hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "post ctx" },
        }),
      },
    ],
    turns: [bash("echo ran"), done],
  },
  {
    name: "PostToolUse decision:block",
    prompt: "run it",
    hooks: [
      {
        id: "post",
        event: "PostToolUse",
        matcher: "Bash",
        answer: json({ decision: "block", reason: "lint failed" }),
      },
    ],
    turns: [bash("echo ran"), done],
  },
  {
    name: "PostToolUse exit 2",
    prompt: "run it",
    hooks: [
      {
        id: "post",
        event: "PostToolUse",
        matcher: "Bash",
        answer: "echo 'post says fix it' >&2; exit 2",
      },
    ],
    turns: [bash("echo ran"), done],
  },
  {
    name: "PostToolUseFailure",
    prompt: "run it",
    hooks: [observe("PostToolUseFailure", "Bash"), observe("PostToolUse", "Bash")],
    turns: [bash("echo oops; exit 3"), done],
  },
  {
    name: "PostToolUseFailure additionalContext",
    prompt: "run it",
    hooks: [
      {
        id: "fail",
        event: "PostToolUseFailure",
        matcher: "Bash",
        answer: json({
          hookSpecificOutput: {
            hookEventName: "PostToolUseFailure",
            additionalContext: "fail ctx",
          },
        }),
      },
    ],
    turns: [bash("echo oops; exit 3"), done],
  },
  {
    // The channel: one message after the tool result carries both events' context.
    name: "PreToolUse + PostToolUse context: one message after the result",
    prompt: "run it",
    hooks: [
      pre(
        "pre",
        json({ hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: "pre ctx" } }),
      ),
      {
        id: "post",
        event: "PostToolUse",
        matcher: "Bash",
        answer: json({
          hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "post ctx" },
        }),
      },
    ],
    turns: [bash("echo ran"), done],
  },
  {
    // Two calls in one answer: both results first (the API wants them next to the calls), then
    // one message with both calls' context.
    name: "two calls in one answer: context after both results",
    prompt: "run them",
    hooks: [
      {
        id: "post",
        event: "PostToolUse",
        matcher: "Bash",
        answer: json({
          hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "post ctx" },
        }),
      },
    ],
    turns: [
      {
        calls: [
          { tool: "Bash", input: { command: "echo one" } },
          { tool: "Bash", input: { command: "echo two" } },
        ],
      },
      done,
    ],
    // Claude Code runs both at once and reports them as they finish (either order, run to run);
    // Keel runs them in the answer's order. Allowed: only the two calls' order swapped.
    deliberate: {
      why: "Keel runs one answer's calls in order: a call's continue:false or a storm stop must keep the later ones from running",
      allows: [
        'post payload tool_input.command: "echo two" ≠ "echo one"',
        'post payload tool_response.stdout: "two" ≠ "one"',
        'post#2 payload tool_input.command: "echo one" ≠ "echo two"',
        'post#2 payload tool_response.stdout: "one" ≠ "two"',
        'model saw (request 2) ["tool_result: (output 0: two)","tool_result: (output 0: one)","system: ',
      ],
    },
  },
  {
    name: "SessionStart + UserPromptSubmit context: one message after the prompt",
    prompt: "hello",
    hooks: [
      { id: "start", event: "SessionStart", answer: "echo 'start ctx'" },
      {
        id: "ups",
        event: "UserPromptSubmit",
        answer: json({
          hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "ups ctx" },
        }),
      },
    ],
    turns: [done],
    deliberate: PROMPT_CONTEXT_CHANNEL,
  },
  {
    name: "two PreToolUse hooks: both contexts, in order",
    prompt: "run it",
    hooks: [
      pre(
        "pre1",
        json({ hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: "first" } }),
      ),
      pre(
        "pre2",
        json({ hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: "second" } }),
      ),
    ],
    turns: [bash("echo ran"), done],
    // Claude Code gives them in the order the hooks finished (it varies run to run).
    deliberate: {
      why: "several hooks' context in configuration order, not finish order",
      allows: ["model saw (request 2)"],
    },
  },
  {
    name: "PostToolUse continue:false",
    prompt: "run it",
    hooks: [
      {
        id: "post",
        event: "PostToolUse",
        matcher: "Bash",
        answer: json({ continue: false, stopReason: "enough" }),
      },
      observe("Stop"),
    ],
    turns: [bash("echo ran > out.txt"), { text: "after" }],
  },
  {
    name: "SessionEnd matcher on reason",
    prompt: "hello",
    hooks: [
      { id: "end-other", event: "SessionEnd", matcher: "other" },
      { id: "end-exit", event: "SessionEnd", matcher: "prompt_input_exit" },
    ],
    turns: [done],
  },
  {
    name: "Write, Read, Edit payloads",
    prompt: "edit files",
    hooks: [observe("PreToolUse", "Write|Read|Edit"), observe("PostToolUse", "Write|Read|Edit")],
    turns: [
      { calls: [{ tool: "Write", input: { file_path: "$PROJECT/a.txt", content: "one\ntwo\n" } }] },
      { calls: [{ tool: "Read", input: { file_path: "$PROJECT/a.txt" } }] },
      {
        calls: [
          {
            tool: "Edit",
            input: { file_path: "$PROJECT/a.txt", old_string: "two", new_string: "three" },
          },
        ],
      },
      done,
    ],
  },
  {
    name: "Stop block continues once",
    prompt: "finish",
    hooks: [
      {
        id: "stop",
        event: "Stop",
        answer:
          "grep -q '\"stop_hook_active\":true' \"$P\" && exit 0; echo 'run the tests first' >&2; exit 2",
      },
    ],
    turns: [{ text: "first" }, { text: "second" }],
  },
  {
    name: "Stop decision:block JSON",
    prompt: "finish",
    hooks: [
      {
        id: "stop",
        event: "Stop",
        answer: `grep -q '"stop_hook_active":true' "$P" && exit 0; ${json({ decision: "block", reason: "one more thing" })}`,
      },
    ],
    turns: [{ text: "first" }, { text: "second" }],
  },
  {
    name: "matchers on Bash",
    prompt: "run it",
    hooks: [
      "Bash",
      "Bash|Write",
      "Ba.*",
      "*",
      "",
      "^Bash$",
      "Bash,Write",
      " Bash ",
      "bash",
      "B",
    ].map((matcher, i) => ({ id: `m${i}`, event: "PreToolUse", matcher })),
    turns: [bash("echo hi"), done],
  },
  {
    name: "matchers ignored on UserPromptSubmit and Stop",
    prompt: "hello",
    hooks: [
      { id: "ups", event: "UserPromptSubmit", matcher: "nomatch" },
      { id: "stop", event: "Stop", matcher: "nomatch" },
    ],
    turns: [done],
  },
  {
    name: "CLAUDE_ENV_FILE exports reach later shell calls",
    prompt: "run it",
    hooks: [
      {
        id: "start",
        event: "SessionStart",
        answer: `echo 'export COMPAT_FOO=bar' >> "$CLAUDE_ENV_FILE"`,
      },
    ],
    turns: [bash('echo "foo=$COMPAT_FOO" > env.txt'), done],
  },
  {
    name: "transcript_path parsed by a Stop hook",
    prompt: "hello",
    // The real Claude Code sometimes runs the Stop hook before it has written the final message
    // to the transcript (about 1 run in 3): the hook reads again, every 0.1 s for up to 5 s,
    // until it finds an assistant text. A transcript that never gets it still differs.
    hooks: [
      {
        id: "stop",
        event: "Stop",
        answer:
          'out="$CLAUDE_PROJECT_DIR/last.txt"; t="$(jq -r .transcript_path "$P")"; i=0; while :; do jq -r \'select(.type=="assistant") | .message.content[] | select(.type=="text") | .text\' "$t" 2>/dev/null | tail -1 > "$out"; if [ -s "$out" ] || [ "$i" -ge 50 ]; then break; fi; i=$((i+1)); sleep 0.1; done',
      },
    ],
    turns: [bash("echo hi"), { text: "the final words" }],
  },
];
