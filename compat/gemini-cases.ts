/**
 * The Gemini CLI differential cases: Claude Code's table (cases.ts) with Gemini's event and
 * tool names (in settings and in the hooks' JSON answers), minus the rows Gemini has no event
 * or notion for. The same `.gemini/settings.json` goes to Gemini CLI and to Keel.
 */
import { bash, CASES, done, json, PROMPT_BLOCK_EXIT_AND_RESULT } from "./cases.js";
import type { CompatCase, HookSpec } from "./types.js";

/** Claude event → Gemini CLI event. */
const GEMINI_EVENTS: Readonly<Record<string, string>> = {
  SessionStart: "SessionStart",
  SessionEnd: "SessionEnd",
  UserPromptSubmit: "BeforeAgent",
  PreToolUse: "BeforeTool",
  PostToolUse: "AfterTool",
  Stop: "AfterAgent",
};

/** Claude tool name → Gemini CLI 0.61 tool name. */
const GEMINI_TOOL_NAMES: Readonly<Record<string, string>> = {
  Bash: "run_shell_command",
  Write: "write_file",
  Read: "read_file",
  Edit: "replace",
};

/** A Claude matcher with Gemini's tool names. */
export function geminiMatcher(matcher: string): string {
  return matcher.replace(/\b(Bash|Write|Read|Edit)\b/g, (n) => GEMINI_TOOL_NAMES[n] ?? n);
}

/** A hook answer with Gemini's event names in `hookEventName`. */
function geminiAnswer(answer: string | undefined): string | undefined {
  return answer?.replace(
    /"hookEventName":"(\w+)"/g,
    (_m, e: string) => `"hookEventName":"${GEMINI_EVENTS[e] ?? e}"`,
  );
}

/** Claude-only output fields a Gemini hook would not use: Keel reads them in every JSON dialect. */
const CLAUDE_FIELDS: CompatCase["deliberate"] = {
  why: "Keel reads Claude's hookSpecificOutput (permissionDecision, updatedInput) in Gemini files too; Gemini CLI reads only decision and tool_input",
  allows: ["model saw (request 2)", "file out.txt", "post payload tool_input.command"],
};

/** AfterAgent rows: everything but the missing `prompt` (a real gap, left to differ). */
const STOP_DELIBERATE: CompatCase["deliberate"] = {
  why: "Gemini sends the bare reason, its -p result and second AfterAgent prompt_response join every answer of the turn; Keel words the reason and gives the last answer",
  allows: [
    'result "firstsecond" ≠ "second"',
    'stop#2 payload prompt_response: "first\nsecond" ≠ "second"',
    "model saw (request 2)",
  ],
};

/** Rows without a Gemini counterpart. */
const SKIPPED = new Set([
  "CLAUDE_ENV_FILE exports reach later shell calls",
  "transcript_path parsed by a Stop hook",
  "SessionEnd matcher on reason",
]);

/** Differences Keel keeps on purpose against Gemini CLI, by case name. */
const GEMINI_DELIBERATE: Readonly<Record<string, CompatCase["deliberate"]>> = {
  "UserPromptSubmit exit 2 blocks the prompt": PROMPT_BLOCK_EXIT_AND_RESULT,
  "UserPromptSubmit decision:block": PROMPT_BLOCK_EXIT_AND_RESULT,
  "PreToolUse deny": CLAUDE_FIELDS,
  "PreToolUse ask (headless)": CLAUDE_FIELDS,
  "PreToolUse exit 1 + JSON deny on stdout": CLAUDE_FIELDS,
  "PreToolUse updatedInput": CLAUDE_FIELDS,
  "PreToolUse additionalContext": {
    why: "Gemini CLI 0.61 drops BeforeTool additionalContext; Keel gives it to the model",
    allows: ["model saw (request 2)"],
  },
  "two PreToolUse hooks: both contexts, in order": {
    why: "Gemini CLI 0.61 drops BeforeTool additionalContext; Keel gives it to the model",
    allows: ["model saw (request 2)"],
  },
  "PreToolUse timeout": {
    why: "a gating hook that times out blocks (Gemini fails open)",
    allows: ["model saw (request 2)", "file out.txt missing"],
  },
  "Stop block continues once": STOP_DELIBERATE,
  "Stop decision:block JSON": STOP_DELIBERATE,
  "Write, Read, Edit payloads": {
    why: "Keel's edit tool has no instruction argument (Gemini's replace requires one from the model)",
    allows: [
      "obs-PreToolUse#3 payload tool_input.instruction missing",
      "obs-PostToolUse#3 payload tool_input.instruction missing",
    ],
  },
};

function forGemini(c: CompatCase): CompatCase | null {
  if (SKIPPED.has(c.name)) return null;
  const hooks: HookSpec[] = [];
  for (const h of c.hooks) {
    const event = GEMINI_EVENTS[h.event];
    if (event === undefined) return null;
    const out: HookSpec = { ...h, event };
    if (h.matcher !== undefined) out.matcher = geminiMatcher(h.matcher);
    const answer = geminiAnswer(h.answer);
    if (answer !== undefined) out.answer = answer;
    hooks.push(out);
  }
  const { deliberate: _claudes, ...rest } = c;
  const deliberate = GEMINI_DELIBERATE[c.name];
  return { ...rest, hooks, ...(deliberate ? { deliberate } : {}) };
}

const after =
  "if [ -e first-done ]; then touch second-after-first; else touch second-alongside-first; fi";

/** Two hooks of one group on `event`, "first" then "second", one after another when
 *  `sequential`; each answers with its command (none: exit 0, no output). */
function group(event: string, sequential: boolean, first: string, second?: string): HookSpec[] {
  const flag = sequential ? { sequential: true } : {};
  const spec = (id: string, answer?: string): HookSpec => ({
    id,
    event,
    group: "g",
    ...flag,
    ...(answer !== undefined ? { answer } : {}),
  });
  return [spec("first", first), spec("second", second)];
}

/** How hooks of one group run: alongside each other, or one after another with `sequential`. */
const ORDER_CASES: CompatCase[] = [
  {
    name: "order: one group, hooks alongside each other",
    prompt: "say hi",
    hooks: group("BeforeAgent", false, "sleep 0.5; touch first-done", after),
    turns: [done],
  },
  {
    name: "order: a sequential group runs its hooks one after another",
    prompt: "say hi",
    hooks: group("BeforeAgent", true, "sleep 0.5; touch first-done", after),
    turns: [done],
  },
  {
    name: "order: in a sequential group, the first hook blocks",
    prompt: "run it",
    hooks: group("BeforeTool", true, "echo 'first says no' >&2; exit 2"),
    turns: [bash("echo ran > out.txt"), done],
  },
];

/** A sequential group hands each hook's rewrite to the next (its hookRunner's
 *  applyHookOutputToInput); hooks alongside each other all see the original. */
const CHAIN_CASES: CompatCase[] = [
  {
    name: "order: in a sequential group, a BeforeTool rewrite reaches the next hook",
    prompt: "run it",
    hooks: group(
      "BeforeTool",
      true,
      json({
        hookSpecificOutput: {
          hookEventName: "BeforeTool",
          tool_input: { command: "echo rewritten > out.txt" },
        },
      }),
    ),
    turns: [bash("echo ran > out.txt"), done],
    deliberate: {
      why: "Gemini words its shell result its own way and tells the model a hook changed the input; the rewritten command ran in both",
      allows: ["model saw (request 2)"],
    },
  },
  {
    name: "order: in a sequential group, BeforeAgent context reaches the next hook's prompt",
    prompt: "say hi",
    hooks: group(
      "BeforeAgent",
      true,
      json({
        hookSpecificOutput: {
          hookEventName: "BeforeAgent",
          additionalContext: "from the first hook",
        },
      }),
    ),
    turns: [done],
  },
];

/** Gemini CLI's own rules, read in its 0.61 bundle (hookRunner, hookPlanner). */
const GEMINI_RULE_CASES: CompatCase[] = [
  {
    name: "gemini: a JSON deny on stderr with empty stdout denies",
    prompt: "run it",
    hooks: [
      {
        id: "guard",
        event: "BeforeTool",
        answer: `echo '{"decision":"deny","reason":"stderr says no"}' >&2`,
      },
    ],
    turns: [bash("echo ran > out.txt"), done],
  },
  {
    name: "gemini: a tool matcher is found anywhere in the name; no valid regex = literal",
    prompt: "run it",
    hooks: [
      { id: "sub", event: "BeforeTool", matcher: "shell" },
      { id: "literal", event: "BeforeTool", matcher: "run_shell_command(" },
    ],
    turns: [bash("echo ran > out.txt"), done],
  },
  {
    name: "gemini: one sequential group makes the whole firing sequential",
    prompt: "say hi",
    hooks: [
      {
        id: "first",
        event: "BeforeAgent",
        group: "a",
        sequential: true,
        answer: "sleep 0.5; touch first-done",
      },
      { id: "second", event: "BeforeAgent", group: "b", answer: after },
    ],
    turns: [done],
  },
];

/** Every Gemini CLI case, in table order. */
export const GEMINI_CASES: CompatCase[] = [
  ...CASES.map(forGemini).filter((c): c is CompatCase => c !== null),
  ...ORDER_CASES,
  ...CHAIN_CASES,
  ...GEMINI_RULE_CASES,
];
