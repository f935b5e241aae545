/**
 * The `compat:codex` cases: the same recording hooks in `.codex/hooks.json` on both sides, a
 * scripted model session in Codex's tools (exec_command, apply_patch) and the equivalent Keel
 * calls (shell, write_file, edit_file). Each case lists the deliberate differences it allows.
 */
import type { HookSpec } from "./types.js";

/** One model turn, in both agents' terms. */
export interface CodexTurn {
  text?: string;
  shell?: string;
  /** A new file: Keel's write_file, Codex's Add File patch. */
  write?: { path: string; content: string };
  /** A one-change edit: Keel's edit_file, Codex's Update File patch. */
  edit?: { path: string; old: string; new: string };
}

/** One row of the table. */
export interface CodexCase {
  name: string;
  prompt: string;
  hooks: HookSpec[];
  turns: CodexTurn[];
  /** Difference phrases (their start) Keel keeps on purpose, each with why. */
  deliberate?: Readonly<Record<string, string>>;
}

/** Differences every case allows (docs/hooks.md, the Codex row). */
export const CODEX_DELIBERATE: Readonly<Record<string, string>> = {
  "payload.transcript_path":
    "Keel writes its own transcript, not a Codex rollout file; the field names Keel's",
  "payload.turn_id": "Keel's turn id is its own prompt id (format differs; presence compared)",
  'payload.tool_response: "Exit code: 0\\nWall time':
    "apply_patch's result is each agent's own text (Codex: its patch report; Keel: its file tool's summary)",
  "payload.permission_mode":
    "Codex reports bypassPermissions under --dangerously-bypass-approvals-and-sandbox; Keel reports its own mode",
};

const all = (event: string, id: string, matcher?: string): HookSpec => ({
  id,
  event,
  ...(matcher === undefined ? {} : { matcher }),
});

export const CODEX_CASES: CodexCase[] = [
  {
    name: "a session: shell, new file, edit, failing command",
    prompt: "do the work",
    hooks: [
      all("SessionStart", "start"),
      all("UserPromptSubmit", "prompt"),
      all("PreToolUse", "pre", "*"),
      all("PostToolUse", "post", "*"),
      all("Stop", "stop"),
    ],
    turns: [
      { shell: "echo hi" },
      { write: { path: "a.txt", content: "one\ntwo\n" } },
      { edit: { path: "a.txt", old: "two", new: "TWO" } },
      { shell: "exit 3" },
      { text: "done" },
    ],
  },
  {
    name: "PreToolUse exit 2 blocks the command (Bash matcher)",
    prompt: "make a file",
    hooks: [
      { id: "guard", event: "PreToolUse", matcher: "Bash", answer: "echo 'no shell' >&2; exit 2" },
    ],
    turns: [{ shell: "echo x > made.txt" }, { text: "blocked" }],
  },
  {
    name: "a Write|Edit matcher sees apply_patch and denies with JSON",
    prompt: "write it",
    hooks: [
      {
        id: "edits",
        event: "PreToolUse",
        matcher: "Write|Edit",
        answer: `printf '%s\\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no edits"}}'`,
      },
    ],
    turns: [{ write: { path: "b.txt", content: "x\n" } }, { shell: "echo after" }, { text: "ok" }],
  },
  {
    name: "exit 2 without stderr (Keel blocks, deliberately); a bare allow is refused",
    prompt: "run",
    hooks: [
      { id: "quiet", event: "PreToolUse", matcher: "Bash", answer: "exit 2" },
      {
        id: "allow",
        event: "PreToolUse",
        matcher: "Bash",
        answer: `printf '%s\\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'`,
      },
    ],
    turns: [{ shell: "echo ran > ran.txt" }, { text: "ok" }],
    deliberate: {
      "files.ran.txt":
        "an exit 2 blocks in Keel even with empty stderr (Codex goes on); docs/hooks.md",
    },
  },
  {
    name: "updatedInput rewrites the command",
    prompt: "run",
    hooks: [
      {
        id: "rewrite",
        event: "PreToolUse",
        matcher: "Bash",
        answer: `printf '%s\\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo rewritten > out.txt"}}}'`,
      },
    ],
    turns: [{ shell: "echo original > out.txt" }, { text: "ok" }],
    // As in compat:claude's updatedInput case (cases.ts): Keel's documented re-decision.
    deliberate: {
      order: "a rewritten input is decided again: PreToolUse fires again on it (docs/security.md)",
      "only Keel fired":
        "a rewritten input is decided again: PreToolUse fires again on it (docs/security.md)",
    },
  },
  {
    name: "UserPromptSubmit exit 2 stops the prompt",
    prompt: "secret plan",
    hooks: [
      { id: "gate", event: "UserPromptSubmit", answer: "echo 'not that prompt' >&2; exit 2" },
      all("Stop", "stop"),
    ],
    turns: [{ shell: "echo x > never.txt" }, { text: "never" }],
    deliberate: {
      'result: ""':
        "a blocked prompt: keel run says why in its result and exits 1 (docs/hooks.md, Where results go); codex exec prints no answer and exits 0",
    },
  },
];
