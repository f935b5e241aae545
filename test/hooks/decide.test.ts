import { describe, expect, it } from "vitest";
import { type DecideContext, decideRun } from "../../src/hooks/decide.js";
import { DIALECTS } from "../../src/hooks/dialects/index.js";
import type { HookEventName } from "../../src/hooks/events.js";
import type { RawRunResult } from "../../src/hooks/handlers/types.js";

function raw(over: Partial<RawRunResult>): RawRunResult {
  return {
    kind: "raw",
    exitCode: 0,
    signal: null,
    stdout: "",
    stderr: "",
    truncated: false,
    timedOut: false,
    cancelled: false,
    startError: null,
    durationMs: 1,
    ...over,
  };
}

/** The exit tables by name: each is owned by a dialect. */
const TABLES = {
  native: DIALECTS.keel.exitTable,
  reasonix: DIALECTS.reasonix.exitTable,
  tutorial: DIALECTS.tutorial.exitTable,
} as const;
type ExitTable = keyof typeof TABLES;

function ctx(
  table: ExitTable,
  event: HookEventName,
  over: Partial<DecideContext> = {},
): DecideContext {
  return {
    event,
    exitTable: TABLES[table],
    parsesJson: table !== "reasonix",
    label: "hook.sh",
    ...over,
  };
}

const deny = JSON.stringify({
  hookSpecificOutput: {
    hookEventName: "PreToolUse",
    permissionDecision: "deny",
    permissionDecisionReason: "no rm",
  },
});

type Row = [
  string,
  ExitTable,
  HookEventName,
  Partial<RawRunResult>,
  Partial<DecideContext>,
  {
    outcome: string;
    decision: string | null;
    message?: string | null;
    additionalContext?: string | null;
  },
];

const rows: Row[] = [
  // native (keel, claude, cagent)
  ["native exit 0 empty", "native", "PreToolUse", {}, {}, { outcome: "pass", decision: null }],
  [
    "native exit 2 gating blocks with stderr",
    "native",
    "PreToolUse",
    { exitCode: 2, stderr: "no\n" },
    {},
    { outcome: "block", decision: "block", message: "no" },
  ],
  [
    "native exit 2 observing = feedback",
    "native",
    "PostToolUse",
    { exitCode: 2, stderr: "lint failed" },
    {},
    { outcome: "warn", decision: null, additionalContext: "lint failed" },
  ],
  [
    "exit 2 observing, feedback to the user only (Claude Code on SessionStart)",
    "native",
    "SessionStart",
    { exitCode: 2, stderr: "setup failed" },
    { feedbackTo: "user" },
    { outcome: "warn", decision: null, message: "setup failed", additionalContext: null },
  ],
  [
    "native exit 2 on Stop blocks (continue)",
    "native",
    "Stop",
    { exitCode: 2, stderr: "tests fail" },
    {},
    { outcome: "block", decision: "block", message: "tests fail" },
  ],
  [
    "native exit 1 = warn",
    "native",
    "PreToolUse",
    { exitCode: 1, stderr: "oops" },
    {},
    { outcome: "warn", decision: null, message: "exit 1: oops" },
  ],
  [
    "native 127 = command not found",
    "native",
    "PreToolUse",
    { exitCode: 127, stderr: "sh: x: not found" },
    {},
    { outcome: "warn", decision: null, message: "command not found: sh: x: not found" },
  ],
  [
    "native JSON deny",
    "native",
    "PreToolUse",
    { stdout: deny },
    {},
    { outcome: "block", decision: "deny", message: "no rm" },
  ],
  [
    "native exit 1 + valid JSON decides",
    "native",
    "PreToolUse",
    { exitCode: 1, stdout: deny },
    {},
    { outcome: "block", decision: "deny", message: "no rm" },
  ],
  [
    "native JSON ask",
    "native",
    "PreToolUse",
    {
      stdout:
        '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"sure?"}}',
    },
    {},
    { outcome: "pass", decision: "ask", message: "sure?" },
  ],
  [
    "native JSON allow",
    "native",
    "PreToolUse",
    { stdout: '{"hookSpecificOutput":{"permissionDecision":"allow"}}' },
    {},
    { outcome: "pass", decision: "allow" },
  ],
  [
    "legacy approve",
    "native",
    "PreToolUse",
    { stdout: '{"decision":"approve"}' },
    {},
    { outcome: "pass", decision: "allow" },
  ],
  [
    "legacy block + reason",
    "native",
    "UserPromptSubmit",
    { stdout: '{"decision":"block","reason":"secret"}' },
    {},
    { outcome: "block", decision: "block", message: "secret" },
  ],
  [
    "decision block on PostToolUse = feedback",
    "native",
    "PostToolUse",
    { stdout: '{"decision":"block","reason":"fix lint"}' },
    {},
    { outcome: "warn", decision: null, additionalContext: "fix lint" },
  ],
  [
    "snake_case (cagent) deny",
    "native",
    "PreToolUse",
    {
      stdout:
        '{"hook_specific_output":{"permission_decision":"deny","permission_decision_reason":"policy"}}',
    },
    {},
    { outcome: "block", decision: "deny", message: "policy" },
  ],
  [
    "cagent exit 2 + JSON reason",
    "native",
    "PreToolUse",
    { exitCode: 2, stdout: '{"decision":"block","reason":"Dangerous"}' },
    {},
    { outcome: "block", decision: "block", message: "Dangerous" },
  ],
  [
    "invalid JSON = warn",
    "native",
    "PreToolUse",
    { stdout: "{not json}" },
    {},
    { outcome: "warn", decision: null },
  ],
  [
    "wrong field type names the field",
    "native",
    "PreToolUse",
    { stdout: '{"hookSpecificOutput":{"permissionDecision":"deny","additionalContext":42}}' },
    {},
    {
      outcome: "warn",
      decision: null,
      message:
        'hook output field "hookSpecificOutput.additionalContext" is invalid: Invalid input: expected string, received number; output ignored',
    },
  ],
  [
    "plain stdout is context on UserPromptSubmit",
    "native",
    "UserPromptSubmit",
    { stdout: "branch: main\n" },
    {},
    { outcome: "pass", decision: null, additionalContext: "branch: main" },
  ],
  [
    "plain stdout is context on SessionStart",
    "native",
    "SessionStart",
    { stdout: "hello" },
    {},
    { outcome: "pass", decision: null, additionalContext: "hello" },
  ],
  [
    "plain stdout ignored on PreToolUse",
    "native",
    "PreToolUse",
    { stdout: "hello" },
    {},
    { outcome: "pass", decision: null, additionalContext: null },
  ],
  [
    "gating timeout fails closed",
    "native",
    "PreToolUse",
    { exitCode: null, timedOut: true },
    { timeoutMs: 1000 },
    { outcome: "timeout", decision: "block" },
  ],
  [
    "gating timeout with onTimeout allow",
    "native",
    "PreToolUse",
    { exitCode: null, timedOut: true },
    { onTimeout: "allow" },
    { outcome: "timeout", decision: null },
  ],
  [
    "a Stop timeout lets the agent stop (a block there only keeps it working)",
    "native",
    "Stop",
    { exitCode: null, timedOut: true },
    { timeoutMs: 1000 },
    { outcome: "timeout", decision: null },
  ],
  [
    "a SubagentStop timeout lets the sub-agent stop",
    "native",
    "SubagentStop",
    { exitCode: null, timedOut: true },
    {},
    { outcome: "timeout", decision: null },
  ],
  [
    "a Stop timeout blocks when the handler says onTimeout block",
    "native",
    "Stop",
    { exitCode: null, timedOut: true },
    { onTimeout: "block" },
    { outcome: "timeout", decision: "block" },
  ],
  [
    "observing timeout",
    "native",
    "PostToolUse",
    { exitCode: null, timedOut: true },
    {},
    { outcome: "timeout", decision: null },
  ],
  [
    "cancelled",
    "native",
    "PreToolUse",
    { exitCode: null, cancelled: true },
    {},
    { outcome: "cancelled", decision: null },
  ],
  [
    "start error",
    "native",
    "PreToolUse",
    { exitCode: null, startError: "spawn ENOENT" },
    {},
    { outcome: "error", decision: null, message: "spawn ENOENT" },
  ],
  // reasonix
  ["reasonix 0 pass", "reasonix", "PreToolUse", {}, {}, { outcome: "pass", decision: null }],
  [
    "reasonix 2 gating blocks",
    "reasonix",
    "PreToolUse",
    { exitCode: 2, stderr: "denied: dangerous command" },
    {},
    { outcome: "block", decision: "block", message: "denied: dangerous command" },
  ],
  [
    "reasonix 2 on Stop = warning",
    "reasonix",
    "Stop",
    { exitCode: 2, stderr: "x" },
    {},
    { outcome: "warn", decision: null },
  ],
  [
    "reasonix 2 on PostToolUse = warning",
    "reasonix",
    "PostToolUse",
    { exitCode: 2 },
    {},
    { outcome: "warn", decision: null },
  ],
  [
    "reasonix ignores JSON",
    "reasonix",
    "PreToolUse",
    { stdout: deny },
    {},
    { outcome: "pass", decision: null },
  ],
  [
    "reasonix timeout on gating blocks",
    "reasonix",
    "UserPromptSubmit",
    { exitCode: null, timedOut: true },
    {},
    { outcome: "timeout", decision: "block" },
  ],
  [
    "reasonix timeout on Stop warns",
    "reasonix",
    "Stop",
    { exitCode: null, timedOut: true },
    {},
    { outcome: "timeout", decision: null },
  ],
  // tutorial
  ["tutorial 0 continue", "tutorial", "PreToolUse", {}, {}, { outcome: "pass", decision: null }],
  [
    "tutorial 1 blocks with stderr",
    "tutorial",
    "PreToolUse",
    { exitCode: 1, stderr: "not allowed" },
    {},
    { outcome: "block", decision: "block", message: "not allowed" },
  ],
  [
    "tutorial 1 on PostToolUse warns",
    "tutorial",
    "PostToolUse",
    { exitCode: 1, stderr: "meh" },
    {},
    { outcome: "warn", decision: null },
  ],
  [
    "tutorial 2 injects stderr",
    "tutorial",
    "PreToolUse",
    { exitCode: 2, stderr: "remember tests" },
    {},
    { outcome: "pass", decision: null, additionalContext: "remember tests" },
  ],
  [
    "tutorial 0 JSON additionalContext",
    "tutorial",
    "PostToolUse",
    { stdout: '{"additionalContext":"ctx"}' },
    {},
    { outcome: "pass", decision: null, additionalContext: "ctx" },
  ],
  [
    "tutorial 3 warns",
    "tutorial",
    "PreToolUse",
    { exitCode: 3 },
    {},
    { outcome: "warn", decision: null },
  ],
];

describe("decideRun", () => {
  it.each(rows)("%s", (_name, table, event, result, over, want) => {
    const v = decideRun(ctx(table, event, over), raw(result));
    expect(v.outcome).toBe(want.outcome);
    expect(v.decision).toBe(want.decision);
    if (want.message !== undefined) expect(v.message).toBe(want.message);
    if (want.additionalContext !== undefined)
      expect(v.additionalContext).toBe(want.additionalContext);
  });

  it("reads updatedInput, systemMessage, continue:false and stopReason", () => {
    const v = decideRun(
      ctx("native", "PreToolUse"),
      raw({
        stdout: JSON.stringify({
          continue: false,
          stopReason: "enough",
          systemMessage: "shown to user",
          hookSpecificOutput: { updatedInput: { command: "ls -la" } },
        }),
      }),
    );
    expect(v).toMatchObject({
      continue: false,
      stopReason: "enough",
      systemMessage: "shown to user",
      updatedInput: { command: "ls -la" },
    });
  });

  it("reads PostToolUse updatedToolOutput (objects become JSON text)", () => {
    const v = decideRun(
      ctx("native", "PostToolUse"),
      raw({ stdout: '{"hookSpecificOutput":{"updatedToolOutput":{"redacted":true}}}' }),
    );
    expect(v.updatedToolOutput).toBe('{"redacted":true}');
  });

  it("names snake_case fields as the hook wrote them", () => {
    const v = decideRun(ctx("native", "PreToolUse"), raw({ stdout: '{"system_message": 3}' }));
    expect(v.outcome).toBe("warn");
    expect(v.message).toContain('"system_message"');
  });

  it("treats decided results from other handlers by event", () => {
    const decided = {
      kind: "decided" as const,
      outcome: "block" as const,
      message: "model says no",
      stdout: "",
      stderr: "",
      exitCode: null,
      truncated: false,
      durationMs: 3,
    };
    expect(decideRun(ctx("native", "Stop"), decided)).toMatchObject({
      outcome: "block",
      decision: "block",
    });
    expect(decideRun(ctx("native", "PostToolUse"), decided)).toMatchObject({
      outcome: "warn",
      decision: null,
      additionalContext: "model says no",
    });
    // A prompt/agent verdict on a tool call is a permission decision: deny, as Claude Code reads it.
    for (const event of ["PreToolUse", "PermissionRequest"] as const) {
      expect(decideRun(ctx("native", event), decided)).toMatchObject({
        outcome: "block",
        decision: "deny",
        message: "model says no",
      });
    }
    expect(decideRun(ctx("native", "UserPromptSubmit"), decided)).toMatchObject({
      decision: "block",
    });
  });
});
