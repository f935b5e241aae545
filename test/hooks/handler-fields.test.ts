/** Claude Code's handler fields `once`, `asyncRewake` and `shell`, with real processes. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHookEngine } from "../../src/hooks/engine.js";
import { buildPayload } from "../../src/hooks/payload.js";
import { makeWorld, type World, worldOptions } from "./helpers.js";

let w: World;
beforeEach(() => {
  w = makeWorld();
});
afterEach(() => w.cleanup());

const stop = () => buildPayload("Stop", { projectDir: w.project, lastAssistantMessage: "done" });

describe("handler fields", () => {
  it("once: runs on the first firing only", async () => {
    const log = join(w.root, "once.log");
    w.json("keel/settings.json", {
      hooks: { Stop: [{ hooks: [{ type: "command", command: `echo x >> ${log}`, once: true }] }] },
    });
    const e = await createHookEngine(worldOptions(w));
    await e.fire({ event: "Stop", payload: stop() });
    await e.fire({ event: "Stop", payload: stop() });
    expect(readFileSync(log, "utf8")).toBe("x\n");
  });

  it("asyncRewake: runs in the background and its exit-2 stderr reaches the model", async () => {
    w.json("keel/settings.json", {
      hooks: {
        Stop: [
          {
            hooks: [
              { type: "command", command: "echo 'tests failed' >&2; exit 2", asyncRewake: true },
            ],
          },
        ],
      },
    });
    const e = await createHookEngine(worldOptions(w));
    const d = await e.fire({ event: "Stop", payload: stop() });
    expect(d.decision).toBe("pass");
    await e.shutdown({ budgetMs: 5000 });
    const results = e.takeAsyncResults();
    expect(results.map((r) => r.additionalContext)).toEqual(["tests failed"]);
  });

  it("shell: the command runs in the named shell", async () => {
    const out = join(w.root, "shell.txt");
    w.json("keel/settings.json", {
      hooks: {
        Stop: [
          {
            hooks: [{ type: "command", command: `echo "$BASH_VERSION" > ${out}`, shell: "bash" }],
          },
        ],
      },
    });
    const e = await createHookEngine(worldOptions(w));
    await e.fire({ event: "Stop", payload: stop() });
    expect(readFileSync(out, "utf8").trim()).not.toBe("");
  });
});
