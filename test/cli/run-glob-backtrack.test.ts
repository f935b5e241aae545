/**
 * A glob the model sends that V8's backtracking RegExp cannot finish (attacks6/17, 18): picomatch
 * compiles `*a*a…*a*b` to `[^/]*?a[^/]*?a…b`, and against a file named with 60 `a`s that search
 * ran for minutes with the event loop blocked, so not even SIGTERM ended `keel run`. Both the glob
 * tool's `pattern` and grep's `glob` filter now go through base/safe-glob.ts (linear time).
 * Spawned (the built CLI): an in-process run would block this test's own event loop and timers.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { createWorld, type World } from "../agent/harness.js";
import { buildPrivate } from "../e2e/tui-harness.js";

const PATHOLOGICAL = `${"*a".repeat(14)}*b`;
/** Far past any honest run of two tool calls; the unfixed run takes minutes. */
const GENEROUS_MS = 20_000;

let build: ReturnType<typeof buildPrivate>;
beforeAll(() => {
  build = buildPrivate();
}, 240_000);
afterAll(() => build?.cleanup());

let world: World | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  child = undefined;
  await world?.dispose();
  world = undefined;
});

/** Runs `keel run go --output-format json`; SIGKILLs it after `ms` (then code is null). */
function runKeel(w: World, ms: number): Promise<{ code: number | null; stdout: string }> {
  const proc = spawn(
    process.execPath,
    [build.bin, "run", "go", "--output-format", "json", "--cwd", w.project],
    { env: w.env, stdio: ["ignore", "pipe", "pipe"] },
  );
  child = proc;
  let stdout = "";
  proc.stdout?.on("data", (d: Buffer) => {
    stdout += d.toString();
  });
  proc.stderr?.resume();
  const timer = setTimeout(() => proc.kill("SIGKILL"), ms);
  return new Promise((resolve) =>
    proc.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout });
    }),
  );
}

describe("keel run: a glob that makes a backtracking RegExp explode", () => {
  it("the glob tool and grep's glob filter answer, and the run finishes", async () => {
    world = await createWorld(
      script(
        reply().tool("glob", { pattern: PATHOLOGICAL }),
        reply().tool("grep", { pattern: "x", glob: PATHOLOGICAL }),
        reply().text("finished"),
      ),
    );
    writeFileSync(join(world.project, "a".repeat(60)), "x\n");
    const r = await runKeel(world, GENEROUS_MS);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).result).toBe("finished");
    const tools = (world.sim.requests.at(-1)?.messages ?? [])
      .filter((m) => m.role === "tool")
      .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
    expect(tools).toEqual([
      `No files match ${JSON.stringify(PATHOLOGICAL)} in the project.`,
      expect.stringMatching(/^No matches for \/x\/ in the project/),
    ]);
  }, 240_000);
});
