/**
 * Issue 8, partly-held attack: a user's guard `if: Bash(git push*)` must catch every spelling
 * of git push a model can write. Real hook process, headless keel run with --yes (so only the
 * guard stands between the model and the command), the simulator as the model.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { commandHook, hookScript, keel, worldPerTest, writeSettings } from "../agent/harness.js";

const newWorld = worldPerTest();

const SPELLINGS = [
  "git  push",
  "env git push",
  "\\git push",
  "{ git push; }",
  "echo $(git push)",
  "command git push",
  "sh -c 'git push'",
  // bash reads a redirection, sh (dash) `ls &` and then the command `>/dev/null git push`
  "ls &>/dev/null git push",
  "ls &>>/dev/null git push",
];

describe("if: Bash(git push*) guard", () => {
  it("blocks every spelling of git push, and lets other commands run", async () => {
    // Each command leaves a marker file if it runs.
    const calls = SPELLINGS.map((c, i) =>
      reply().tool("shell", { command: `touch ran${i}; ${c}` }),
    );
    const world = await newWorld(
      script(...calls, reply().tool("shell", { command: "touch allowed" }), reply().text("ok")),
    );
    const guard = hookScript(world, "guard.sh", 'echo "no pushing" >&2; exit 2');
    writeSettings(world, {
      PreToolUse: [commandHook(guard, "Bash", { if: "Bash(git push*)" })],
    });
    const r = await keel(world, ["run", "go", "--yes", "--output-format", "json"]);
    const statuses = JSON.parse(r.stdout).toolCalls.map((c: { status: string }) => c.status);
    expect(statuses).toEqual([...SPELLINGS.map(() => "blocked"), "ok"]);
    SPELLINGS.forEach((_, i) => {
      expect(existsSync(join(world.project, `ran${i}`))).toBe(false);
    });
    expect(existsSync(join(world.project, "allowed"))).toBe(true);
  });
});
