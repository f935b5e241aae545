/**
 * The Reasonix 1.x differential cases: the same `.reasonix/settings.json` hooks and the same
 * model turn through the real Reasonix and through Keel.
 */
import { PROMPT_BLOCK_EXIT_AND_RESULT } from "./cases.js";
import type { CompatCase, HookSpec, ModelTurn } from "./types.js";

const bash = (command: string): ModelTurn => ({ calls: [{ tool: "Bash", input: { command } }] });
const done: ModelTurn = { text: "done" };
const observe = (event: string, matcher?: string): HookSpec => ({
  id: `obs-${event}`,
  event,
  ...(matcher !== undefined ? { matcher } : {}),
});

/** Every Reasonix case, in table order. */
export const REASONIX_CASES: CompatCase[] = [
  {
    name: "lifecycle: every event of a plain tool turn",
    prompt: "say hi",
    hooks: [
      observe("SessionStart"),
      observe("UserPromptSubmit"),
      observe("PreToolUse"),
      observe("PostToolUse"),
      observe("Stop"),
      observe("SessionEnd"),
    ],
    turns: [bash("echo hi"), done],
  },
  {
    name: "PreToolUse exit 2 blocks",
    prompt: "run it",
    hooks: [{ id: "pre", event: "PreToolUse", answer: "echo 'refused by guard' >&2; exit 2" }],
    turns: [bash("echo ran > out.txt"), done],
  },
  {
    name: "PreToolUse Claude-style JSON deny",
    prompt: "run it",
    hooks: [
      {
        id: "pre",
        event: "PreToolUse",
        answer: `echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "not this one" } })}'`,
      },
    ],
    turns: [bash("echo ran > out.txt"), done],
  },
  {
    name: "UserPromptSubmit JSON additionalContext",
    prompt: "say hi",
    hooks: [
      {
        id: "ups",
        event: "UserPromptSubmit",
        answer: `echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "branch notes: keep billing" } })}'`,
      },
    ],
    turns: [done],
  },
  {
    name: "UserPromptSubmit plain stdout",
    prompt: "say hi",
    hooks: [{ id: "ups", event: "UserPromptSubmit", answer: "echo 'plain note from hook'" }],
    turns: [done],
  },
  {
    name: "PreToolUse exit 1 warns, tool runs",
    prompt: "run it",
    hooks: [{ id: "pre", event: "PreToolUse", answer: "echo 'hook broke' >&2; exit 1" }],
    turns: [bash("echo ran > out.txt"), done],
  },
  {
    name: "matchers: bash, run_command, .*",
    prompt: "run it",
    hooks: ["bash", "run_command", ".*", "ba"].map((matcher, i) => ({
      id: `m${i}`,
      event: "PreToolUse",
      matcher,
    })),
    turns: [bash("echo hi"), done],
  },
  {
    name: "UserPromptSubmit exit 2 blocks",
    prompt: "print the secret",
    hooks: [{ id: "ups", event: "UserPromptSubmit", answer: "echo 'no secrets' >&2; exit 2" }],
    turns: [done],
    deliberate: PROMPT_BLOCK_EXIT_AND_RESULT,
  },
  {
    name: "Write, Read, Edit payloads",
    prompt: "edit files",
    hooks: [observe("PreToolUse"), observe("PostToolUse")],
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
    name: "PostToolUse exit 2",
    prompt: "run it",
    hooks: [{ id: "post", event: "PostToolUse", answer: "echo 'post says fix it' >&2; exit 2" }],
    turns: [bash("echo ran"), done],
  },
  {
    name: "Stop exit 2",
    prompt: "finish",
    hooks: [{ id: "stop", event: "Stop", answer: "echo 'keep going' >&2; exit 2" }],
    turns: [{ text: "first" }, { text: "second" }],
  },
  {
    name: "PreToolUse timeout (gating)",
    prompt: "run it",
    hooks: [{ id: "pre", event: "PreToolUse", answer: "sleep 3", timeout: 1 }],
    turns: [bash("echo ran > out.txt"), done],
  },
  {
    name: "order: two PreToolUse hooks, the first blocks",
    prompt: "run it",
    hooks: [
      { id: "first", event: "PreToolUse", answer: "echo 'first says no' >&2; exit 2" },
      { id: "second", event: "PreToolUse" },
    ],
    turns: [bash("echo ran > out.txt"), done],
  },
  {
    name: "order: the second hook starts after the first ends",
    prompt: "say hi",
    hooks: [
      { id: "first", event: "UserPromptSubmit", answer: "sleep 0.5; touch first-done" },
      {
        id: "second",
        event: "UserPromptSubmit",
        answer:
          "if [ -e first-done ]; then touch second-after-first; else touch second-alongside-first; fi",
      },
    ],
    turns: [done],
  },
];
