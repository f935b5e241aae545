/**
 * The background shell through `keel run` against the simulator: `run_in_background` returns a
 * job id at once, shell_output returns new output and the status, kill_shell ends the job's
 * whole process group, and a job still running when the session ends is killed with it — no
 * process left. A background command is judged like a foreground one (a deny rule refuses it).
 */
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { keel, type World, worldPerTest } from "../agent/harness.js";

const newWorld = worldPerTest();

/** The content of the n-th tool message the model got (0-based), across all requests. */
function toolResults(world: World): string[] {
  const last = world.sim.requests.at(-1);
  return (last?.messages ?? [])
    .filter((m) => m.role === "tool")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(check: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

async function run(world: World): Promise<void> {
  const r = await keel(world, ["run", "work", "--yes", "--output-format", "json"]);
  expect(r.code).toBe(0);
}

describe("keel run: background shell", () => {
  it("starts a job, reads its output in parts, kills its process group", async () => {
    const world = await newWorld(
      script(
        // The foreground call waits for the job's marker, written once both lines are out,
        // instead of sleeping past them: under load a fixed sleep could end first.
        reply().tool("shell", {
          command:
            "echo first; echo $$ > pid; echo second; sleep 30 & echo $! > child; touch printed; wait",
          run_in_background: true,
        }),
        reply().tool("shell", { command: "until [ -e printed ]; do sleep 0.02; done" }),
        reply().tool("shell_output", { id: "bg1" }),
        reply().tool("shell_output", { id: "bg1" }),
        reply().tool("kill_shell", { id: "bg1" }),
        reply().tool("shell_output", { id: "bg1" }),
        reply().tool("shell_output", { id: "bg9" }),
        reply().text("done"),
      ),
    );
    await run(world);
    const [started, , out1, out2, killed, out3, unknown] = toolResults(world);
    expect(started).toMatch(/^Started background job bg1\./);
    expect(out1).toBe("first\nsecond\n[job bg1: running]");
    expect(out2).toBe("(no new output)\n[job bg1: running]");
    expect(killed).toBe("Killed background job bg1.");
    expect(out3).toBe("(no new output)\n[job bg1: killed]");
    expect(unknown).toMatch(/no background job bg9 \(jobs: bg1\)/);
    // The shell and the sleep it started (same process group) are both gone.
    const shellPid = Number(readFileSync(join(world.project, "pid"), "utf8"));
    const childPid = Number(readFileSync(join(world.project, "child"), "utf8"));
    expect(await waitFor(() => !alive(shellPid) && !alive(childPid))).toBe(true);
    // The output file is in the session's folder, 0600.
    const jobs = readdirJobs(world);
    expect(jobs.length).toBe(1);
    expect(statSync(jobs[0] as string).mode & 0o777).toBe(0o600);
  });

  it("a job still running at session end is killed: no process left", async () => {
    const world = await newWorld(
      script(
        reply().tool("shell", {
          command: "echo $$ > pid; sleep 60 & echo $! > child; wait",
          run_in_background: true,
        }),
        reply().tool("shell", { command: "until [ -s child ]; do sleep 0.02; done" }),
        reply().text("done"),
      ),
    );
    await run(world);
    const shellPid = Number(readFileSync(join(world.project, "pid"), "utf8"));
    const childPid = Number(readFileSync(join(world.project, "child"), "utf8"));
    expect(await waitFor(() => !alive(shellPid) && !alive(childPid))).toBe(true);
  });

  it("a background command is judged like a foreground one: a deny rule refuses it", async () => {
    const world = await newWorld(
      script(
        reply().tool("shell", { command: "touch made", run_in_background: true }),
        reply().text("done"),
      ),
    );
    writeFileSync(
      join(world.home, "settings.json"),
      JSON.stringify({ permissions: { deny: ["Bash(touch:*)"] } }),
    );
    await run(world);
    expect(toolResults(world)[0]).toMatch(/Bash\(touch:\*\)/);
    await new Promise((r) => setTimeout(r, 200));
    expect(existsSync(join(world.project, "made"))).toBe(false);
  });
});

/** The job output files of the world's one session (`<session>.jobs/*.out`). */
function readdirJobs(world: World): string[] {
  const { readdirSync } = require("node:fs") as typeof import("node:fs");
  const root = join(world.home, "sessions");
  const out: string[] = [];
  for (const project of readdirSync(root)) {
    for (const entry of readdirSync(join(root, project))) {
      if (!entry.endsWith(".jobs")) continue;
      for (const f of readdirSync(join(root, project, entry)))
        out.push(join(root, project, entry, f));
    }
  }
  return out;
}
