/**
 * attacks6 32 and 34: a user deny rule with `*` wildcards (`Bash(git * push * --force*)` there;
 * here `Bash(git * push * --force * origin*)`), and the same text as a user hook's `if`
 * condition, against one 200 KB command the model writes (`git push --force push --force …`).
 * Compiled to `^git .* push .* --force .* origin.*$`, a backtracking RegExp tries every place
 * for each piece (O(n^3) here) and kept the event loop busy for minutes, SIGTERM unheard;
 * src/base/wildcard.ts matches in O(n·m). The built CLI is spawned (a blocked run would block
 * this process) and killed after a minute; the fixed run answers in seconds.
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { commandHook, type World, worldPerTest, writeSettings } from "../agent/harness.js";

const newWorld = worldPerTest();
const BIN = join(import.meta.dirname, "../../bin/keel.js");
const LONG = `git${" push --force".repeat(15_000)}`;
const RULE = "git * push * --force * origin*";

/** The built CLI, spawned without blocking this process; SIGKILLed after a minute. */
function spawnKeel(w: World, args: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: w.env, cwd: w.project, encoding: "utf8", timeout: 60_000, killSignal: "SIGKILL" },
      (err, stdout) => {
        const e = err as (Error & { code?: number }) | null;
        done({ code: e ? (typeof e.code === "number" ? e.code : null) : 0, stdout });
      },
    );
  });
}

async function longThenForced(): Promise<World> {
  return newWorld(
    script(
      reply().tool("shell", { command: LONG }),
      reply().tool("shell", { command: "git nopush push a --force b origin c" }),
      reply().tool("shell", { command: "git --version" }),
      reply().text("done"),
    ),
  );
}

const statuses = (stdout: string) =>
  (JSON.parse(stdout).toolCalls as Array<{ status: string }>).map((c) => c.status);

describe("a wildcard rule against a 200 KB command answers", () => {
  it("32: a Bash deny rule decides the long line, and still denies the forced push", async () => {
    const w = await longThenForced();
    writeFileSync(
      join(w.home, "settings.json"),
      JSON.stringify({ permissions: { deny: [`Bash(${RULE})`] } }),
    );
    const r = await spawnKeel(w, ["run", "go", "--yes", "--output-format", "json"]);
    expect(r.code).toBe(0);
    // The long line is over the parser's limit: it needs a person, refused headless.
    expect(statuses(r.stdout)).toEqual(["blocked", "blocked", "ok"]);
    expect(JSON.stringify(w.sim.requests[2]?.messages)).toContain(`Bash(${RULE})`);
  }, 150_000);

  it("34: a hook's if condition decides the long line, and still fires on the forced push", async () => {
    const w = await longThenForced();
    writeSettings(w, {
      PreToolUse: [commandHook("echo guarded >&2; exit 2", "Bash", { if: `Bash(${RULE})` })],
    });
    const r = await spawnKeel(w, ["run", "go", "--yes", "--output-format", "json"]);
    expect(r.code).toBe(0);
    expect(statuses(r.stdout)).toEqual(["blocked", "blocked", "ok"]);
    expect(JSON.stringify(w.sim.requests[2]?.messages)).toContain("guarded");
  }, 150_000);
});
