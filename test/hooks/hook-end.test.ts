/** onStart/onEnd: a front end learns when each hook of a firing starts and ends. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
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

describe("onEnd", () => {
  it("reports a fast hook's end while a slower one of the same firing still runs", async () => {
    const release = join(w.root, "release");
    w.json("project/.keel/settings.json", {
      hooks: {
        PreToolUse: [
          {
            hooks: [
              { type: "command", command: "true" },
              { type: "command", command: `while [ ! -e '${release}' ]; do sleep 0.01; done` },
            ],
          },
        ],
      },
    });
    const engine = await createHookEngine(worldOptions(w));
    await engine.trust();
    const trusted = await createHookEngine(worldOptions(w));
    const log: string[] = [];
    const decision = await trusted.fire({
      event: "PreToolUse",
      payload: buildPayload("PreToolUse", {
        projectDir: w.project,
        tool: "shell",
        input: { command: "ls" },
      }),
      onStart: (h: HookStart) => log.push(`start ${h.command}`),
      onEnd: (h: HookStart) => {
        log.push(`end ${h.command}`);
        // The fast hook has ended and the slow one is still waiting: let it finish now.
        if (h.command === "true") writeFileSync(release, "");
      },
    });
    expect(decision.runs).toHaveLength(2);
    expect(log.filter((l) => l.startsWith("start"))).toHaveLength(2);
    expect(log.filter((l) => l.startsWith("end"))).toEqual([
      "end true",
      expect.stringContaining("end while"),
    ]);
  });
});
