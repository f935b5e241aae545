import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHookEngine } from "../../src/hooks/engine.js";
import { buildPayload } from "../../src/hooks/payload.js";
import type { HookStart } from "../../src/hooks/types.js";
import { makeWorld, type World, worldOptions } from "./helpers.js";

let w: World;
beforeEach(() => {
  w = makeWorld();
});
afterEach(() => w.cleanup());

describe("onStart", () => {
  it("reports each foreground hook before its result, and not background ones", async () => {
    w.json("keel/settings.json", {
      hooks: {
        PreToolUse: [
          { hooks: [{ type: "command", command: "echo first" }] },
          { hooks: [{ type: "command", command: "echo later", async: true }] },
        ],
      },
    });
    const engine = await createHookEngine(worldOptions(w));
    const started: HookStart[] = [];
    const decision = await engine.fire({
      event: "PreToolUse",
      payload: buildPayload("PreToolUse", {
        projectDir: w.project,
        tool: "shell",
        input: { command: "ls" },
      }),
      onStart: (s) => started.push(s),
    });
    expect(started.map((s) => [s.event, s.command])).toEqual([["PreToolUse", "echo first"]]);
    const run = decision.runs[0];
    expect(run?.hookId).toBe(started[0]?.hookId);
    expect(run?.startedAt).toBe(started[0]?.startedAt);
    await engine.shutdown();
  });

  it("a throwing onStart does not stop the hook", async () => {
    w.json("keel/settings.json", {
      hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "echo ran" }] }] },
    });
    const engine = await createHookEngine(worldOptions(w));
    const decision = await engine.fire({
      event: "PreToolUse",
      payload: buildPayload("PreToolUse", {
        projectDir: w.project,
        tool: "shell",
        input: { command: "ls" },
      }),
      onStart: () => {
        throw new Error("front end broke");
      },
    });
    expect(decision.runs[0]?.stdout.trim()).toBe("ran");
  });
});
