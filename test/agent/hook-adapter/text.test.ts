import { describe, expect, it } from "vitest";
import {
  contextForModel,
  preToolVetoText,
  promptBlockedText,
  stopBlockingErrors,
  stopFeedbackText,
} from "../../../src/agent/hook-adapter/text.js";
import type { HookDecision, HookRunRecord } from "../../../src/hooks/types.js";

function run(over: Partial<HookRunRecord>): HookRunRecord {
  return {
    hookId: "h",
    event: "PreToolUse",
    source: "/p/.claude/settings.json",
    dialect: "claude",
    scope: "project",
    handlerType: "command",
    command: "./guard.sh",
    outcome: "pass",
    exitCode: 0,
    durationMs: 1,
    stdout: "",
    stderr: "",
    truncated: false,
    message: null,
    startedAt: 0,
    async: false,
    ...over,
  };
}

function decision(over: Partial<HookDecision>): HookDecision {
  return {
    event: "PreToolUse",
    decision: "pass",
    reason: null,
    updatedInput: null,
    updatedToolOutput: null,
    additionalContext: null,
    systemMessages: [],
    continue: true,
    stopReason: null,
    runs: [],
    ...over,
  };
}

describe("hook text for the model", () => {
  it("a Claude hook's veto reads as Claude 2.1.332's hook error (exit 2 and JSON deny)", () => {
    const exit2 = run({ outcome: "block", exitCode: 2, stderr: "no\n", message: "no" });
    expect(preToolVetoText(decision({ decision: "block", runs: [exit2] }), "shell")).toBe(
      "PreToolUse:shell hook error: [./guard.sh]: no\n",
    );
    const deny = run({ outcome: "block", message: "not this one" });
    expect(preToolVetoText(decision({ decision: "deny", runs: [deny] }), "shell")).toBe(
      "PreToolUse:shell hook error: not this one",
    );
  });

  it("a Reasonix 1.x veto reads as Reasonix 1.38's block line (exit 2 and timeout)", () => {
    const rx = { dialect: "reasonix1" as const, source: "/p/.reasonix/settings.json" };
    const exit2 = run({ ...rx, outcome: "block", exitCode: 2, stderr: "no\n", message: "no" });
    expect(preToolVetoText(decision({ decision: "block", runs: [exit2] }), "shell")).toBe(
      "blocked: hook [project/PreToolUse] ./guard.sh — block: no",
    );
    const message = "hook timed out after 1s — Reasonix 1.x timeouts are milliseconds: ./guard.sh";
    const late = run({ ...rx, outcome: "timeout", exitCode: null, message });
    expect(preToolVetoText(decision({ decision: "block", runs: [late] }), "shell")).toBe(
      "blocked: hook [project/PreToolUse] ./guard.sh — block: hook timed out after 1s",
    );
  });

  it("keeps Keel's wording for other dialects and for timeouts", () => {
    const keel = run({ dialect: "keel", outcome: "block", exitCode: 2, message: "no" });
    expect(
      preToolVetoText(decision({ decision: "block", reason: "no", runs: [keel] }), "shell"),
    ).toMatch(/^Blocked by PreToolUse hook `\.\/guard\.sh`.*: no\. The tool did not run\.$/);
    const timeout = run({ outcome: "timeout", exitCode: null, message: "hook timed out" });
    expect(
      stopFeedbackText(decision({ decision: "block", reason: "hook timed out", runs: [timeout] })),
    ).toBe("A Stop hook asks you to keep working:\nhook timed out");
  });

  it("words context per piece: stdout success, JSON context, feedback; others as written", () => {
    const claude = run({});
    const plain = run({ dialect: "keel" });
    const d = decision({
      event: "SessionStart",
      contextPieces: [
        { source: "stdout", text: "tabs\n", run: claude },
        { source: "json", text: "ctx", run: claude },
        { source: "json", text: "native", run: plain },
      ],
    });
    expect(contextForModel(d, { source: "startup" })).toBe(
      "SessionStart:startup hook success: tabs\n\nSessionStart hook additional context: ctx\n\nnative",
    );
    // Two Claude hooks' JSON context of one event: one heading, lines joined (as 2.1.332 does).
    const two = decision({
      event: "PreToolUse",
      contextPieces: [
        { source: "json", text: "first", run: claude },
        { source: "json", text: "second", run: claude },
      ],
    });
    expect(contextForModel(two, { tool: "shell" })).toBe(
      "PreToolUse:shell hook additional context: first\nsecond",
    );
    const post = decision({
      event: "PostToolUse",
      contextPieces: [
        { source: "feedback", text: "fix it", run: run({ exitCode: 2, stderr: "fix it\n" }) },
      ],
    });
    expect(contextForModel(post, { tool: "shell" })).toBe(
      'PostToolUse:shell hook blocking error from command: "./guard.sh": [./guard.sh]: fix it',
    );
    expect(contextForModel(decision({ contextPieces: [] }))).toBeNull();
  });

  it("a blocked prompt and Stop feedback in Claude's words", () => {
    const exit2 = run({ outcome: "block", exitCode: 2, stderr: "no secrets\n", message: "x" });
    const d = decision({ event: "UserPromptSubmit", decision: "block", runs: [exit2] });
    expect(promptBlockedText(d, "print it")).toBe(
      "UserPromptSubmit operation blocked by hook:\n[./guard.sh]: no secrets\n\n\nOriginal prompt: print it",
    );
    const json = run({ outcome: "block", exitCode: 0, message: "one more thing" });
    expect(stopFeedbackText(decision({ event: "Stop", decision: "block", runs: [json] }))).toMatch(
      /^The text below is the output of a hook that the user, .* approval from the user\.\nStop hook feedback:\none more thing$/,
    );
    // Claude Code 2.1.332 adds a blocking-error line for a JSON block, none for exit 2.
    expect(
      stopBlockingErrors(decision({ event: "Stop", decision: "block", runs: [json] }), "Stop"),
    ).toEqual(['Stop hook blocking error from command: "./guard.sh": one more thing']);
    const stop2 = run({ outcome: "block", exitCode: 2, stderr: "tests\n", message: "tests" });
    expect(
      stopBlockingErrors(decision({ event: "Stop", decision: "block", runs: [stop2] }), "Stop"),
    ).toEqual([]);
  });
});
