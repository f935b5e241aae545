import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createShellTool,
  defaultShellOperations,
  type ShellOperations,
} from "../../src/tools/shell.js";
import { isAlive, killQuietly, NO_SIGNAL, tempDir, waitForDeath } from "./helpers.js";

let project: ReturnType<typeof tempDir>;
const leftovers: number[] = [];

beforeEach(() => {
  project = tempDir();
});
afterEach(() => {
  for (const pid of leftovers.splice(0)) killQuietly(pid);
  project.cleanup();
});

function pidsIn(text: string): number[] {
  return [...text.matchAll(/PID=(\d+)/g)].map((m) => Number(m[1]));
}

describe("shell tool", () => {
  it("runs in the project directory and reports output and exit code", async () => {
    const tool = createShellTool({ cwd: project.dir });
    const r = await tool.run({ command: "pwd; echo oops >&2; exit 3" }, { signal: NO_SIGNAL });
    expect(r.isError).toBe(true);
    expect(r.content).toContain(project.dir);
    expect(r.content).toContain("oops");
    expect(r.content).toContain("[exit code: 3]");
    expect(r.details).toMatchObject({ exitCode: 3, interrupted: false, truncated: false });
    expect(r.details?.stderr).toBe("oops\n");
    expect(r.details?.stdout).toBe(`${project.dir}\n`);
  });

  it("succeeds with exit code 0 and passes the context environment", async () => {
    const tool = createShellTool({ cwd: project.dir, env: { ...process.env, KEEL_T: "v1" } });
    const r = await tool.run({ command: 'echo "$KEEL_T"' }, { signal: NO_SIGNAL });
    expect(r.isError).toBe(false);
    expect(r.content).toBe("v1\n[exit code: 0]");
  });

  it("says so when there is no output", async () => {
    const r = await createShellTool({ cwd: project.dir }).run(
      { command: "true" },
      { signal: NO_SIGNAL },
    );
    expect(r.content).toBe("(no output)\n[exit code: 0]");
  });

  it("kills the whole process group on timeout, including a backgrounded grandchild", async () => {
    const tool = createShellTool({ cwd: project.dir });
    const r = await tool.run(
      { command: "sleep 60 & echo PID=$!; sleep 60", timeout_ms: 1000 },
      { signal: NO_SIGNAL },
    );
    const [pid] = pidsIn(r.content);
    expect(pid).toBeDefined();
    leftovers.push(pid ?? 0);
    expect(r.isError).toBe(true);
    expect(r.content).toContain("timed out after 1000 ms");
    expect(r.details).toMatchObject({ interrupted: true, exitCode: null });
    expect(await waitForDeath(pid ?? 0)).toBe(true);
  });

  it("escalates to SIGKILL for a grandchild that ignores SIGTERM and holds the pipes", async () => {
    const tool = createShellTool({ cwd: project.dir });
    const r = await tool.run(
      { command: `sh -c 'trap "" TERM; echo PID=$$; sleep 60; sleep 60' & wait`, timeout_ms: 1000 },
      { signal: NO_SIGNAL },
    );
    const [pid] = pidsIn(r.content);
    expect(pid).toBeDefined();
    leftovers.push(pid ?? 0);
    expect(r.details).toMatchObject({ interrupted: true });
    expect(await waitForDeath(pid ?? 0)).toBe(true);
  });

  it("returns when the shell exits even though a background grandchild keeps the pipes open", async () => {
    const tool = createShellTool({ cwd: project.dir });
    const r = await tool.run(
      { command: "sleep 60 & echo PID=$!; echo done" },
      { signal: NO_SIGNAL },
    );
    const [pid] = pidsIn(r.content);
    leftovers.push(pid ?? 0);
    expect(r.isError).toBe(false);
    expect(r.content).toContain("done");
    expect(r.content).toContain("[exit code: 0]");
    // Not killed: background jobs survive the call (their output is just detached).
    expect(isAlive(pid ?? 0)).toBe(true);
  });

  it("kills the process group when the call is aborted", async () => {
    const controller = new AbortController();
    // Abort on the first byte of output: proves the command was running when the abort came.
    const ops: ShellOperations = {
      ...defaultShellOperations,
      spawn: (command, opts) => {
        const child = defaultShellOperations.spawn(command, opts);
        child.stdout?.once("data", () => controller.abort());
        return child;
      },
    };
    const tool = createShellTool({ cwd: project.dir }, ops);
    const r = await tool.run(
      { command: "sleep 60 & echo PID=$!; sleep 60" },
      { signal: controller.signal },
    );
    const [pid] = pidsIn(r.content);
    leftovers.push(pid ?? 0);
    expect(r.isError).toBe(true);
    expect(r.content).toContain("interrupted by the user");
    expect(r.details).toMatchObject({ interrupted: true });
    expect(await waitForDeath(pid ?? 0)).toBe(true);
  });

  it("does not start a command when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const r = await createShellTool({ cwd: project.dir }).run(
      { command: "touch created" },
      { signal: controller.signal },
    );
    expect(r.isError).toBe(true);
    expect(r.content).toContain("not started");
  });

  it("caps a flood of output, keeping head and tail with a marker", async () => {
    const tool = createShellTool({ cwd: project.dir });
    const r = await tool.run(
      { command: "echo FIRST; head -c 2000000 /dev/zero | tr '\\0' a; echo; echo LAST" },
      { signal: NO_SIGNAL },
    );
    expect(r.isError).toBe(false);
    expect(r.content.length).toBeLessThan(31_000);
    expect(r.content.startsWith("FIRST\n")).toBe(true);
    expect(r.content).toContain("LAST\n[exit code: 0]");
    const omitted = Number(/\[output truncated: (\d+) bytes omitted\]/.exec(r.content)?.[1]);
    // FIRST\n + 2 000 000 a + \n + LAST\n = 2 000 012 bytes, 30 000 kept.
    expect(omitted).toBe(2_000_012 - 30_000);
    expect(r.details).toMatchObject({ truncated: true });
  });

  it("summarizes binary output instead of sending raw bytes to the model", async () => {
    const tool = createShellTool({ cwd: project.dir });
    const bytes = "printf 'PK\\003\\004\\000\\000\\377\\376'; head -c 4000 /dev/zero";
    const r = await tool.run({ command: bytes }, { signal: NO_SIGNAL });
    expect(r.isError).toBe(false);
    expect(r.content).not.toContain("\u0000");
    expect(r.content).toMatch(/^\[binary output: 4008 bytes not shown;/);
    expect(r.content).toContain("[exit code: 0]");
    const text = await tool.run({ command: "echo 'héllo wörld ✓'" }, { signal: NO_SIGNAL });
    expect(text.content).toBe("héllo wörld ✓\n[exit code: 0]");
  });

  it("exposes the command as its primary argument and is a shell-kind tool", () => {
    const tool = createShellTool({ cwd: project.dir });
    expect(tool.kind).toBe("shell");
    expect(tool.primaryArg({ command: "git push" })).toBe("git push");
  });
});

describe("shell tool without a project directory", () => {
  it("says the working directory is missing instead of a confusing spawn error", async () => {
    const r = await createShellTool({ cwd: "/nonexistent/keel-dir" }).run(
      { command: "echo hi" },
      { signal: NO_SIGNAL },
    );
    expect(r).toMatchObject({ isError: true });
    expect(r.content).toContain("working directory /nonexistent/keel-dir does not exist");
  });
});
