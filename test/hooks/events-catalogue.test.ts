import { describe, expect, it } from "vitest";
import { aggregate } from "../../src/hooks/aggregate.js";
import { decideRun } from "../../src/hooks/decide.js";
import { DIALECTS } from "../../src/hooks/dialects/index.js";
import { EVENT_SPECS, HOOK_EVENTS, type HookEventName } from "../../src/hooks/events.js";
import type { HookDefinition, HookRunRecord } from "../../src/hooks/types.js";
import { neverFiringEvents } from "../../src/hooks/validate.js";

describe("the event catalogue", () => {
  it("has Claude Code 2.1.332's 34 events, each specified under its own name", () => {
    expect(HOOK_EVENTS).toHaveLength(34);
    for (const e of HOOK_EVENTS) expect(EVENT_SPECS[e].name).toBe(e);
  });

  it.each([
    ["PostToolBatch", true, null],
    ["PermissionDenied", false, "tool_name"],
    ["StopFailure", false, "error"],
    ["ConfigChange", true, "source"],
    ["InstructionsLoaded", false, "load_reason"],
    ["UserPromptExpansion", true, "command_name"],
    ["Elicitation", true, "mcp_server_name"],
    ["FileChanged", false, "file_name"],
  ] as const)("%s: gating %s, matcher on %s", (event, gating, field) => {
    expect(EVENT_SPECS[event].gating).toBe(gating);
    expect(EVENT_SPECS[event].matcherField).toBe(field);
  });

  it("lists an event Keel never fires once per file in validate", () => {
    const hook = (event: HookEventName, path: string) =>
      ({ event, source: { path, dialect: "claude", scope: "project" } }) as HookDefinition;
    const problems = neverFiringEvents([
      hook("TeammateIdle", "/p/a.json"),
      hook("TeammateIdle", "/p/a.json"),
      hook("WorktreeCreate", "/p/a.json"),
      hook("PreToolUse", "/p/a.json"),
      // Setup and FileChanged fire (keel run --init / --maintenance, the file watcher).
      hook("Setup", "/p/a.json"),
      hook("FileChanged", "/p/a.json"),
    ]);
    expect(problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/^TeammateIdle never fires in Keel/),
      expect.stringMatching(/^WorktreeCreate never fires in Keel/),
    ]);
  });
});

describe("Claude's newer output fields reach the decision", () => {
  const run = (stdout: string) =>
    decideRun(
      { event: "PostToolUse", exitTable: DIALECTS.claude.exitTable, parsesJson: true, label: "h" },
      {
        kind: "raw",
        exitCode: 0,
        signal: null,
        stdout,
        stderr: "",
        truncated: false,
        timedOut: false,
        cancelled: false,
        startError: null,
        durationMs: 1,
      },
    );

  it("parses sessionTitle, watchPaths, updatedMCPToolOutput and retry, and aggregates them", () => {
    const a = run(
      JSON.stringify({
        hookSpecificOutput: {
          hookEventName: "PostToolUse",
          sessionTitle: "Fix the build",
          watchPaths: ["/p/.env"],
          updatedMCPToolOutput: { content: [{ type: "text", text: "redacted" }] },
        },
      }),
    );
    const b = run(
      JSON.stringify({ hookSpecificOutput: { watchPaths: ["/p/.envrc", "/p/.env"], retry: true } }),
    );
    const item = (v: typeof a, order: number) => ({
      verdict: v,
      record: {} as HookRunRecord,
      dialect: DIALECTS.claude,
      order,
    });
    const d = aggregate("PostToolUse", [item(a, 0), item(b, 1)]);
    expect(d.extras).toEqual({
      sessionTitle: "Fix the build",
      watchPaths: ["/p/.env", "/p/.envrc"],
      updatedMCPToolOutput: { content: [{ type: "text", text: "redacted" }] },
      retry: true,
    });
  });

  it("a wrongly typed newer field is a warning, not silently ignored", () => {
    const v = run(JSON.stringify({ hookSpecificOutput: { watchPaths: "/p/.env" } }));
    expect(v.outcome).toBe("warn");
    expect(v.message).toContain("watchPaths");
  });
});
