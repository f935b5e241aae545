/**
 * Issue 12: the same broken hook files give the same problems in `keel hooks validate`, at TUI
 * start (the problem lines), after `/hooks reload` and in `keel hooks trust`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hookProblemLines } from "../../src/cli/tui/hook-problems.js";
import { reply, script } from "../../src/sim/index.js";
import { agentFor, keel, worldPerTest } from "../agent/harness.js";

const newWorld = worldPerTest();

describe("one loader result for every path", () => {
  it("validate, TUI start, /hooks reload and trust agree on the errors", async () => {
    const w = await newWorld(script(reply().text("ok")));
    mkdirSync(join(w.project, ".claude"), { recursive: true });
    mkdirSync(join(w.project, ".keel"), { recursive: true });
    // Three errors: broken JSON in one file; a bad matcher and a missing script in another.
    writeFileSync(join(w.project, ".claude", "settings.json"), '{\n  "hooks": {,}\n}');
    writeFileSync(
      join(w.project, ".keel", "settings.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            { matcher: "(", hooks: [{ type: "command", command: "true" }] },
            { matcher: "shell", hooks: [{ type: "command", command: "./hooks/missing.sh" }] },
          ],
        },
      }),
    );
    const validate = await keel(w, ["hooks", "validate", "--json", "--cwd", w.project]);
    const report = JSON.parse(validate.stdout) as { errors: number };
    expect(report.errors).toBe(3);

    const agent = await agentFor(w);
    const atStart = hookProblemLines(agent.hooks.listing(), { projectDir: w.project, max: 99 });
    expect(atStart).toHaveLength(3);
    const reloaded = await agent.hooks.reload();
    expect(reloaded.allProblems.filter((p) => p.severity === "error")).toHaveLength(3);
    expect(hookProblemLines(reloaded, { projectDir: w.project, max: 99 })).toEqual(atStart);

    const trust = await keel(w, ["hooks", "trust", "--cwd", w.project]);
    expect(trust.stderr).toContain("3 errors");
    // Not just the count: trust and validate print the same lines, and the TUI shows them too.
    const lines = (text: string) => text.split("\n").filter((l) => /: (error|warning): /.test(l));
    const validateText = await keel(w, ["hooks", "validate", "--cwd", w.project]);
    expect(lines(trust.stderr)).toEqual(lines(validateText.stdout));
    const tail = (l: string) => l.replace(/^.*?: (error|warning): /, "$1: ");
    expect(atStart.map(tail)).toEqual(lines(validateText.stdout).map(tail));
  });
});
