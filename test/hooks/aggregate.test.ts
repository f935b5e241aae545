import { describe, expect, it } from "vitest";
import { type AggregateItem, aggregate } from "../../src/hooks/aggregate.js";
import type { RunVerdict } from "../../src/hooks/decide.js";
import { DIALECTS } from "../../src/hooks/dialects/index.js";
import type { DialectName, HookRunRecord } from "../../src/hooks/types.js";

function item(order: number, v: Partial<RunVerdict>, dialect: DialectName = "keel"): AggregateItem {
  const verdict: RunVerdict = {
    outcome: "pass",
    message: null,
    decision: null,
    updatedInput: null,
    updatedToolOutput: null,
    additionalContext: null,
    systemMessage: null,
    continue: true,
    stopReason: null,
    ...v,
  };
  const record = { hookId: `h${order}`, outcome: verdict.outcome } as HookRunRecord;
  return { verdict, record, dialect: DIALECTS[dialect], order };
}

const tool = { keelTool: "shell", input: { command: "rm -rf build" }, projectDir: "/p" };

describe("aggregate", () => {
  it.each([
    ["nothing decided → pass", [{}], "pass"],
    ["allow", [{ decision: "allow" }], "allow"],
    ["ask beats allow", [{ decision: "allow" }, { decision: "ask" }], "ask"],
    ["deny beats ask", [{ decision: "ask" }, { decision: "deny" }, { decision: "allow" }], "deny"],
    ["block vetoes allow", [{ decision: "allow" }, { decision: "block" }], "block"],
    [
      "first veto in configuration order names the kind",
      [{ decision: "deny" }, { decision: "block" }],
      "deny",
    ],
  ] as const)("%s", (_n, verdicts, want) => {
    const d = aggregate(
      "PreToolUse",
      verdicts.map((v, i) => item(i, v as Partial<RunVerdict>)),
      tool,
    );
    expect(d.decision).toBe(want);
  });

  it("joins veto reasons in configuration order, not finish order", () => {
    const d = aggregate(
      "PreToolUse",
      [
        item(2, { decision: "block", message: "second" }),
        item(1, { decision: "deny", message: "first" }),
      ],
      tool,
    );
    expect(d.decision).toBe("deny");
    expect(d.reason).toBe("first\nsecond");
    expect(d.runs.map((r) => r.hookId)).toEqual(["h1", "h2"]);
  });

  it("applies updatedInput in configuration order and maps each back to Keel's fields", () => {
    const d = aggregate(
      "PreToolUse",
      [
        // Finished first but configured last: its rewrite must win.
        item(3, { updatedInput: { cmd: "echo cagent" } }, "cagent"),
        item(1, { updatedInput: { command: "echo claude", timeout: 5000 } }, "claude"),
      ],
      tool,
    );
    expect(d.updatedInput).toEqual({ command: "echo cagent", timeout_ms: 5000 });
  });

  it("a Claude updatedInput is the whole input: fields it leaves out are dropped; others merge", () => {
    const input = { path: "a.txt", offset: 10, limit: 5 };
    const read = { keelTool: "read_file", input, projectDir: "/p" };
    const claude = aggregate(
      "PreToolUse",
      [item(0, { updatedInput: { file_path: "/p/a.txt", limit: 50 } }, "claude")],
      read,
    );
    expect(claude.updatedInput).toEqual({ path: "a.txt", limit: 50 });
    const keel = aggregate("PreToolUse", [item(0, { updatedInput: { limit: 50 } })], read);
    expect(keel.updatedInput).toEqual({ path: "a.txt", offset: 10, limit: 50 });
    // Composed in configuration order: the Claude hook drops offset, the Keel hook sets limit.
    const both = aggregate(
      "PreToolUse",
      [
        item(1, { updatedInput: { limit: 7 } }),
        item(0, { updatedInput: { file_path: "/p/a.txt", limit: 5 } }, "claude"),
      ],
      read,
    );
    expect(both.updatedInput).toEqual({ path: "a.txt", limit: 7 });
  });

  it("maps a Claude absolute file_path back to the path the model wrote when unchanged", () => {
    const d = aggregate(
      "PreToolUse",
      [item(0, { updatedInput: { file_path: "/p/src/a.ts", content: "x" } }, "claude")],
      { keelTool: "write_file", input: { path: "src/a.ts", content: "y" }, projectDir: "/p" },
    );
    expect(d.updatedInput).toEqual({ path: "src/a.ts", content: "x" });
  });

  it("maps tutorial and reasonix edit fields back", () => {
    const input = { path: "a", old_string: "x", new_string: "y" };
    const t = aggregate("PreToolUse", [item(0, { updatedInput: { new_text: "z" } }, "tutorial")], {
      keelTool: "edit_file",
      input,
      projectDir: "/p",
    });
    expect(t.updatedInput).toEqual({ path: "a", old_string: "x", new_string: "z" });
    const r = aggregate("PreToolUse", [item(0, { updatedInput: { search: "q" } }, "reasonix")], {
      keelTool: "edit_file",
      input,
      projectDir: "/p",
    });
    expect(r.updatedInput).toEqual({ path: "a", old_string: "q", new_string: "y" });
  });

  it("concatenates contexts and system messages in configuration order", () => {
    const d = aggregate("PostToolUse", [
      item(2, { additionalContext: "B", systemMessage: "sb" }),
      item(0, { additionalContext: "A", systemMessage: "sa" }),
      item(1, {}),
    ]);
    expect(d.additionalContext).toBe("A\n\nB");
    expect(d.systemMessages).toEqual(["sa", "sb"]);
    expect(d.decision).toBe("pass");
  });

  it("continue:false ends the turn with the stop reason", () => {
    const d = aggregate("Stop", [
      item(0, {}),
      item(1, { continue: false, stopReason: "budget hit" }),
    ]);
    expect(d.continue).toBe(false);
    expect(d.stopReason).toBe("budget hit");
  });

  it("takes the last updatedToolOutput in configuration order", () => {
    const d = aggregate("PostToolUse", [
      item(1, { updatedToolOutput: "second" }),
      item(0, { updatedToolOutput: "first" }),
    ]);
    expect(d.updatedToolOutput).toBe("second");
  });

  it("ignores updatedInput on events that do not rewrite input", () => {
    const d = aggregate("PostToolUse", [item(0, { updatedInput: { command: "x" } })], tool);
    expect(d.updatedInput).toBeNull();
  });
});
