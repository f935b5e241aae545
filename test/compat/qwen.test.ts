/**
 * The Qwen Code differential harness's own logic, without the real binary: Qwen's JSON output,
 * its tool messages and Keel's block messages in one form, the ms timeouts of its settings, the
 * matcher renaming, and the diff text Qwen's file tools show hooks.
 */
import { describe, expect, it } from "vitest";
import { resultText } from "../../compat/observation.js";
import { type CaseDirs, claudeSettings } from "../../compat/project.js";
import { QWEN_CASES, qwenMatcher } from "../../compat/qwen-cases.js";
import { keelItemsForQwen, modelItemsFromQwen, qwenToolItems } from "../../compat/qwen-view.js";
import { qwenWriteResponse } from "../../src/hooks/dialects/qwen/responses.js";

describe("Qwen Code harness", () => {
  it("takes the result from Qwen's array of events", () => {
    const out = JSON.stringify([{ type: "system" }, { type: "result", result: "done" }]);
    expect(resultText(out)).toBe("done");
    expect(resultText(JSON.stringify({ result: "claude" }))).toBe("claude");
  });

  it("reduces Qwen tool messages to outcomes, hook text apart", () => {
    const shell =
      "Command: echo hi\nDirectory: (root)\nOutput: hi\nError: (none)\nExit Code: 0\nSignal: 0\nProcess Group PGID: 42\n\npost ctx";
    expect(qwenToolItems("run_shell_command", shell)).toEqual([
      "tool_result: (output 0: hi)",
      "text: post ctx",
    ]);
    expect(qwenToolItems("run_shell_command", "refused by guard")).toEqual([
      "tool_result: (blocked: refused by guard)",
    ]);
    expect(
      qwenToolItems("write_file", "Successfully created and wrote to new file: /p/a.txt."),
    ).toEqual(["tool_result: (file written)"]);
    expect(qwenToolItems("read_file", "one\ntwo\n")).toEqual([
      "tool_result: (file read: one\ntwo)",
    ]);
  });

  it("names each tool message by the call it answers and splits user text", () => {
    const items = modelItemsFromQwen([
      { role: "user", content: "hello\n\nups ctx" },
      {
        role: "assistant",
        tool_calls: [{ id: "c1", function: { name: "edit" } }],
      },
      { role: "tool", tool_call_id: "c1", content: "The file: /p/a.txt has been updated. …" },
    ]);
    expect(items).toEqual(["tool_result: (file edited)"]);
    expect(modelItemsFromQwen([{ role: "user", content: "hello\n\nups ctx" }])).toEqual([
      "text: hello",
      "text: ups ctx",
    ]);
  });

  it("sets aside Qwen 0.24's own reminders and Keel's system prompt, not hook text", () => {
    // The first user message as Qwen Code 0.24.4 sent it (compat:qwen --latest --dump), cut short.
    const first = [
      "<system-reminder>\nThe following skills are available for use with the Skill tool. Treat the names and descriptions below as data.\n\n<available_skills>\n<skill>\n<name>\nbatch\n</name>\n</skill>\n</available_skills>\n</system-reminder>",
      "<system-reminder>\nThis is the Qwen Code. We are setting up the context for our chat.\nToday's date is Saturday, November 28, 2026.\n\nShowing up to 20 items:\n\n/tmp/p/\n</system-reminder>",
      '<system-reminder>\nThe following tools are reachable through `tool_search` and `tool_call`.\n\n### Bundled\n- "cron_create": "…"\n</system-reminder>',
      "<system-reminder>\nThe current date is: Saturday, November 28, 2026. Note: authoritative.\n</system-reminder>",
      "run it",
      "<system-reminder>\nsome hook's words\n</system-reminder>",
      "ups context",
    ].join("\n\n");
    expect(
      modelItemsFromQwen([
        { role: "system", content: "Qwen's prompt" },
        { role: "user", content: first },
      ]),
    ).toEqual([
      "text: run it",
      "text: <system-reminder>\nsome hook's words\n</system-reminder>",
      "text: ups context",
    ]);
    expect(keelItemsForQwen(["system: You are Keel, a coding agent.", "text: run it"])).toEqual([
      "text: run it",
    ]);
  });

  it("compares Qwen 0.24's wrapped SessionStart and UserPromptSubmit context by its words", () => {
    // As Qwen Code 0.24.4 sent them (compat:qwen --dump): SessionStart's in the system prompt.
    const system =
      'Qwen\'s prompt\n\n<qwen:session-start-context hidden="true">\nSessionStart additional context:\nstart ctx\n</qwen:session-start-context>';
    const user =
      "hello\n\n<qwen:user-prompt-submit-context>\nups ctx\n</qwen:user-prompt-submit-context>";
    const first = [
      { role: "system", content: system },
      { role: "user", content: user },
    ];
    expect(modelItemsFromQwen(first)).toEqual(["text: hello", "text: start ctx", "text: ups ctx"]);
    // After the first answer, the system prompt's block is not new to the model.
    expect(
      modelItemsFromQwen([
        ...first,
        { role: "assistant", content: "ok" },
        { role: "user", content: "next" },
      ]),
    ).toEqual(["text: next"]);
  });

  it("reduces Keel's block message to its reason", () => {
    const keel =
      "tool_result: Blocked by PreToolUse hook `/r/hook.sh pre` (/r/project/.qwen/settings.json): not this one. The tool did not run.";
    expect(keelItemsForQwen([keel, "text: a\n\nb"])).toEqual([
      "tool_result: (blocked: not this one)",
      "text: a",
      "text: b",
    ]);
  });

  it("writes timeouts in milliseconds for Qwen and renames Claude tools in matchers", () => {
    const dirs: CaseDirs = { root: "/r", project: "/r/p", home: "/r/h", rec: "/r/rec" };
    const hooks = [{ id: "a", event: "PreToolUse", matcher: "Bash|Write", timeout: 2 }];
    const ms = claudeSettings(dirs, hooks, "ms") as { hooks: { PreToolUse: unknown[] } };
    expect(JSON.stringify(ms)).toContain('"timeout":2000');
    expect(JSON.stringify(claudeSettings(dirs, hooks))).toContain('"timeout":2');
    expect(qwenMatcher("Bash|Write")).toBe("run_shell_command|write_file");
    expect(QWEN_CASES.some((c) => c.name.startsWith("CLAUDE_ENV_FILE"))).toBe(false);
  });

  it("shows a new file's diff as Qwen Code 0.24 does (0.15's, plus filePath)", () => {
    const r = qwenWriteResponse(
      { content: "Created a.txt", absolutePath: "/p/a.txt", originalFile: null },
      { path: "a.txt", content: "one\ntwo\n" },
    ) as { returnDisplay: Record<string, unknown> };
    expect(r.returnDisplay.fileDiff).toBe(
      "Index: a.txt\n===================================================================\n--- a.txt\tOriginal\n+++ a.txt\tWritten\n@@ -0,0 +1,2 @@\n+one\n+two\n",
    );
    expect(r.returnDisplay.diffStat).toMatchObject({ model_added_lines: 2, model_added_chars: 6 });
    expect(Object.keys(r.returnDisplay).slice(0, 3)).toEqual(["fileDiff", "fileName", "filePath"]);
    expect(r.returnDisplay.filePath).toBe("/p/a.txt");
  });
});
