/**
 * Issue 8 audit, attacks that need Keel as a separate process: a hang must be observable as a
 * process that does not exit (a FIFO or an endless device as a settings file), and two
 * `keel run -c` must really run at once. The child runs src/cli/main.ts through tsx, the way
 * bin/keel.js runs the bundle. Safe behaviour is asserted; an open hole is an `it.fails`.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { keel, type World, worldPerTest } from "../agent/harness.js";

const REPO = resolve(__dirname, "../..");
const newWorld = worldPerTest();

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) {
    if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  }
});

interface Outcome {
  /** null when it had to be killed after `withinMs`. */
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `keel <args>` as a child process; kills it (code null) if it has not exited in `withinMs`.
 * A hang is told from a slow start by that deadline only, so it is far above a loaded machine's
 * start (the .mcp.json FIFO run once took over 20 s at a load of 20 on two cores).
 */
function spawnKeel(
  world: World,
  args: string[],
  withinMs: number,
  onStdout?: (all: string, child: ChildProcess) => void,
): Promise<Outcome> {
  // The built CLI, as a user runs it (`npm test` builds first): compiling src/ through tsx in
  // each of these processes took most of this file's time (~90 s of a loaded machine).
  const child = spawn(process.execPath, [join(REPO, "bin/keel.js"), ...args], {
    cwd: REPO,
    env: world.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (d: Buffer) => {
    stdout += d.toString();
    onStdout?.(stdout, child);
  });
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise((done) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
    }, withinMs);
    child.once("exit", (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

describe("attack 6: a settings file that is not a regular file", () => {
  it("a FIFO as .keel/settings.json: keel hooks list finishes and names it", async () => {
    const world = await newWorld(script(reply().text("unused")));
    mkdirSync(join(world.project, ".keel"));
    execFileSync("mkfifo", [join(world.project, ".keel/settings.json")]);
    const list = await spawnKeel(world, ["hooks", "list", "--cwd", world.project], 60_000);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain("not a regular file");
  }, 90_000);

  // The session-settings and MCP-config readers take only regular files, opened non-blocking.
  it.each([".keel/settings.json", ".keel/settings.local.json", ".mcp.json"])(
    "a FIFO as %s does not hang keel run (session settings / MCP config readers)",
    async (file) => {
      const world = await newWorld(script(reply().text("fine")));
      mkdirSync(join(world.project, ".keel"));
      execFileSync("mkfifo", [join(world.project, file)]);
      const run = await spawnKeel(world, ["run", "hi", "--cwd", world.project], 60_000);
      // No hang. A settings file Keel cannot read stops `keel run` before the first request,
      // naming it (its rules or hooks would be lost: fail closed, docs/security.md); the MCP
      // config alone is a warning and the run goes on.
      if (file === ".mcp.json") {
        expect(run.code).toBe(0);
        expect(run.stdout).toContain("fine");
      } else {
        expect(run.code).toBe(1);
        expect(run.stderr).toContain(file);
      }
    },
    90_000,
  );

  it("own attack: .claude/settings.json linked to /dev/zero is refused, not read", async () => {
    const world = await newWorld(script(reply().text("fine")));
    mkdirSync(join(world.project, ".claude"));
    symlinkSync("/dev/zero", join(world.project, ".claude/settings.json"));
    const run = await spawnKeel(world, ["run", "hi", "--cwd", world.project], 60_000);
    // Fails closed (its hooks and rules cannot be read), quickly and naming the file.
    expect(run.code).toBe(1);
    expect(run.stdout).not.toContain("fine");
    // Refused as not a regular file, not read until V8's string limit (hundreds of MB).
    expect(run.stderr).toContain(".claude/settings.json");
    expect(run.stderr).not.toMatch(/Invalid string length/);
  }, 90_000);
});

describe("attack 7: two keel run -c at once", () => {
  it("the second writer gets a clear error or a new session; the session still resumes", async () => {
    const world = await newWorld(
      script(
        reply().text("first"),
        reply().tool("shell", { command: "sleep 2" }),
        reply().tool("shell", { command: "sleep 2" }),
        reply().text("a"),
        reply().text("b"),
        reply().text("c"),
      ),
    );
    const first = await keel(world, ["run", "hi", "--output-format", "json"]);
    expect(first.code).toBe(0);
    const firstId = JSON.parse(first.stdout).sessionId as string;
    const args = ["run", "-c", "go", "--yes", "--output-format", "json", "--cwd", world.project];
    const [a, b] = await Promise.all([
      spawnKeel(world, args, 40_000),
      spawnKeel(world, args, 40_000),
    ]);
    const outcomes = [a, b].map((o) =>
      o.code === 0 ? { ok: true, id: JSON.parse(o.stdout).sessionId as string } : { ok: false },
    );
    // At most one of them may append to the original session.
    expect(outcomes.filter((o) => o.ok && o.id === firstId).length).toBeLessThanOrEqual(1);
    for (const [i, o] of [a, b].entries()) {
      if (o.code !== 0) expect(o.stderr, `run ${i}`).toMatch(/lock|in use|another|busy/i);
      expect(o.code, `run ${i}: ${o.stderr}`).not.toBeNull();
    }
    // The session every later resume lands on is still whole.
    const again = await keel(world, ["run", "-c", "again", "--output-format", "json"]);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe("");
  }, 130_000);
});

describe("attack 8: regex DoS in grep through keel run", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`^(a+)+b$ over 5 GB of links: ${signal} to keel run stops it`, async () => {
      const world = await newWorld(
        script(reply().tool("grep", { pattern: "^(a+)+b$" }), reply().text("done")),
      );
      // One 1 MB file behind 5000 links inside the project: minutes of scanning, little disk.
      writeFileSync(join(world.project, "big.txt"), `${"a".repeat(999)}\n`.repeat(1000));
      for (let i = 0; i < 5000; i++) symlinkSync("big.txt", join(world.project, `l${i}.txt`));
      let sent = false;
      const r = await spawnKeel(
        world,
        ["run", "go", "--output-format", "stream-json", "--cwd", world.project],
        45_000,
        (out, child) => {
          // The grep has started once its tool call is announced.
          if (!sent && /"grep"/.test(out)) {
            sent = true;
            child.kill(signal);
          }
        },
      );
      expect(sent).toBe(true);
      expect(r.code).not.toBeNull();
      // Stopped mid-scan, not finished: the grep says so and the turn is aborted.
      expect(r.stdout).toContain("grep: interrupted by the user.");
      expect(r.stdout).toContain('"stopReason":"aborted"');
    }, 90_000);
  }
});
