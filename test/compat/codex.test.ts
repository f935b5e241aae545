/** compat:codex's comparison logic against fakes (the real run needs the codex binary). */
import { describe, expect, it } from "vitest";
import { comparePoints, inFiringOrder } from "../../compat/codex.js";
import { CODEX_CASES } from "../../compat/codex-cases.js";
import type { CodexObservation } from "../../compat/run-codex.js";
import type { HookRecord } from "../../compat/types.js";

const rec = (id: string, payload: Record<string, unknown>): HookRecord => ({
  id,
  payload,
  env: {},
});
const obs = (hooks: HookRecord[], files: Record<string, string> = {}): CodexObservation => ({
  hooks,
  files,
  result: "done",
  exitCode: 0,
  paths: { root: "/r", project: "/r/project", home: "/r/home" },
  notes: [],
});

describe("compat:codex comparison", () => {
  it("hooks of one firing are unordered; firings keep their order", () => {
    const pre = { hook_event_name: "PreToolUse", tool_use_id: "c1" };
    const sorted = inFiringOrder([
      rec("b", pre),
      rec("a", pre),
      rec("s", { hook_event_name: "Stop" }),
    ]);
    expect(sorted.map((r) => r.id)).toEqual(["a", "b", "s"]);
  });

  it("counts same, deliberate and differing points", () => {
    const c = CODEX_CASES[0];
    if (!c) throw new Error("no case");
    const base = {
      hook_event_name: "Stop",
      cwd: "/r/project",
      permission_mode: "bypassPermissions",
    };
    const peer = obs([rec("stop", base)], { "a.txt": "x" });
    const keel = obs([rec("stop", { ...base, extra: 1 })], { "a.txt": "y" });
    const points = comparePoints(c, peer, keel);
    expect(points.map((p) => p.verdict)).toEqual(["same", "differs", "differs", "same"]);
    expect(points[1]?.detail).toContain("payload.extra extra");
    const onlyMode = comparePoints(
      c,
      peer,
      obs([rec("stop", { ...base, permission_mode: "default" })], { "a.txt": "x" }),
    );
    expect(onlyMode.map((p) => p.verdict)).toEqual(["same", "deliberate", "same", "same"]);
  });
});
