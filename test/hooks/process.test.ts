import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { withGitSafety } from "../../src/base/index.js";
import { runProcess, type SpawnFn } from "../../src/hooks/process.js";
import { makeWorld, type World } from "./helpers.js";

const REPO = resolve(__dirname, "../..");
let w: World;
beforeEach(() => {
  w = makeWorld();
});
afterEach(() => w.cleanup());

const base = () => ({ cwd: w.project, env: { ...process.env }, stdin: "", timeoutMs: 10_000 });

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until `pid` is gone (the SIGKILL lands 500 ms after SIGTERM). */
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 200 && alive(pid); i++) await new Promise((r) => setTimeout(r, 25));
  return !alive(pid);
}

describe("runProcess", () => {
  it("gives a layered hook environment the same variables as a flat one, git's overrides too", async () => {
    // hook-env.ts layers the hook's own variables over the user's environment (its prototype);
    // runProcess keeps that layering for speed: the hook must see exactly withGitSafety(flat).
    const user = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: "/h", GIT_CONFIG_COUNT: "1" };
    const cases: Array<Record<string, string>> = [
      { FOO: "bar", HOME: "/own" },
      { FOO: "bar", GIT_CONFIG_COUNT: "2", GIT_CONFIG_KEY_1: "x.y", GIT_CONFIG_VALUE_1: "z" },
    ];
    for (const own of cases) {
      const layered = Object.assign(Object.create({ ...user }) as Record<string, string>, own);
      const flat: Record<string, string> = { ...user, ...own };
      const seen = (await runProcess({ ...base(), env: layered, args: ["/usr/bin/env", "-0"] }))
        .stdout;
      const want = Object.entries(withGitSafety(flat)).map(([k, v]) => `${k}=${v}`);
      expect(seen.split("\0").filter(Boolean).sort()).toEqual(want.sort());
    }
  });

  it("runs sh -c in the project dir with the given env and stdin", async () => {
    const r = await runProcess({
      ...base(),
      command: 'pwd; echo "$FOO"; wc -c',
      env: { ...process.env, FOO: "bar" },
      stdin: "12345",
    });
    expect(r.exitCode).toBe(0);
    expect(
      r.stdout
        .split("\n")
        .slice(0, 3)
        .map((s) => s.trim()),
    ).toEqual([w.project, "bar", "5"]);
  });

  it("runs the exec form without a shell (no expansion of payload-like text)", async () => {
    const r = await runProcess({ ...base(), args: ["/bin/echo", "$HOME", "a;b"] });
    expect(r.stdout).toBe("$HOME a;b\n");
  });

  it("kills a hanging hook at its timeout", async () => {
    const r = await runProcess({ ...base(), command: "sleep 30", timeoutMs: 200 });
    expect(r.timedOut).toBe(true);
    expect(r.exitCode).toBeNull();
  }, 10_000);

  it("does not wait for a backgrounded sleep that holds stdout", async () => {
    const r = await runProcess({ ...base(), command: "sleep 30 & echo started" });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("started\n");
    expect(r.timedOut).toBe(false);
  }, 10_000);

  it("a grandchild holding the pipes cannot hold a timed-out run; the group is killed", async () => {
    const pidFile = join(w.root, "pids");
    const r = await runProcess({
      ...base(),
      command: `(trap '' TERM; sleep 30) & echo $! > ${pidFile}; trap '' TERM; sleep 30`,
      timeoutMs: 300,
    });
    expect(r.timedOut).toBe(true);
    const grandchild = Number(readFileSync(pidFile, "utf8").trim());
    expect(await gone(grandchild)).toBe(true);
  }, 10_000);

  it("SIGKILLs a hook that traps SIGTERM", async () => {
    const pidFile = join(w.root, "pid");
    const r = await runProcess({
      ...base(),
      command: `echo $$ > ${pidFile}; trap 'echo got term >&2' TERM; while :; do sleep 0.05; done`,
      timeoutMs: 300,
    });
    expect(r.timedOut).toBe(true);
    expect(await gone(Number(readFileSync(pidFile, "utf8").trim()))).toBe(true);
  }, 10_000);

  it("a Keel process that exits right after a timeout still SIGKILLs a TERM-trapping hook", async () => {
    // The shell dies at SIGTERM and the run resolves early; the script it started traps
    // SIGTERM. Only the SIGKILL 500 ms later ends it, so Keel must not exit before sending it.
    const pidFile = join(w.root, "pid");
    const hook = w.write(
      "trap.sh",
      `#!/bin/sh\necho $$ > ${pidFile}\ntrap '' TERM\nwhile :; do sleep 0.05; done\n`,
      { executable: true },
    );
    const driver = w.write(
      "driver.mts",
      `import { runProcess } from ${JSON.stringify(join(REPO, "src/hooks/process.ts"))};
const r = await runProcess({ command: ${JSON.stringify(`${hook}; true`)}, cwd: ${JSON.stringify(w.project)},
  env: process.env, stdin: "", timeoutMs: 300 });
process.stdout.write(JSON.stringify({ timedOut: r.timedOut }));
`,
    );
    const child = spawn(process.execPath, ["--import", "tsx", driver], {
      cwd: REPO,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
    });
    await new Promise((done) => child.on("exit", done));
    expect(JSON.parse(out)).toEqual({ timedOut: true });
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    try {
      expect(await gone(pid)).toBe(true);
    } finally {
      if (alive(pid)) process.kill(pid, "SIGKILL");
    }
  }, 20_000);

  it("caps 50 MB of output, flags it, and keeps draining so the hook finishes", async () => {
    const r = await runProcess({
      ...base(),
      command: "head -c 52428800 /dev/zero | tr '\\0' a; echo done >&2",
    });
    expect(r.exitCode).toBe(0);
    expect(r.truncated).toBe(true);
    expect(r.stdout.length).toBe(1024 * 1024);
    expect(r.stderr).toBe("done\n");
  }, 30_000);

  it("survives a hook that exits without reading a 1 MB payload", async () => {
    const r = await runProcess({ ...base(), command: "exit 0", stdin: "x".repeat(1024 * 1024) });
    expect(r.exitCode).toBe(0);
    expect(r.startError).toBeNull();
  });

  it("decodes non-UTF-8 output safely", async () => {
    const r = await runProcess({
      ...base(),
      command: "printf '\\377\\376 ok'; printf '\\303' >&2",
    });
    expect(r.stdout).toBe("\uFFFD\uFFFD ok");
    expect(r.stderr).toBe("\uFFFD");
  });

  it("reports a missing executable: 127 via the shell, a start error in exec form", async () => {
    const viaShell = await runProcess({ ...base(), command: "definitely-not-a-command-xyz" });
    expect(viaShell.exitCode).toBe(127);
    const exec = await runProcess({ ...base(), args: [join(w.root, "missing.sh")] });
    expect(exec.startError).toMatch(/ENOENT/);
  });

  it("cancels on abort", async () => {
    const controller = new AbortController();
    const pending = runProcess({ ...base(), command: "sleep 30", signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const r = await pending;
    expect(r.cancelled).toBe(true);
    expect(r.timedOut).toBe(false);
  }, 10_000);

  it("a shorter timeout started after a longer one still fires on time (one timer for all runs)", async () => {
    const controller = new AbortController();
    const long = runProcess({
      ...base(),
      command: "sleep 30",
      timeoutMs: 20_000,
      signal: controller.signal,
    });
    const started = Date.now();
    const short = await runProcess({ ...base(), command: "sleep 30", timeoutMs: 300 });
    expect(short.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
    controller.abort();
    const r = await long;
    expect([r.cancelled, r.timedOut]).toEqual([true, false]);
  }, 20_000);

  it("one abort cancels every run on the signal; a run that already ended keeps its result", async () => {
    const controller = new AbortController();
    const signal = controller.signal;
    const done = await runProcess({ ...base(), command: "echo ok", signal });
    const pending = [1, 2, 3].map(() => runProcess({ ...base(), command: "sleep 30", signal }));
    setTimeout(() => controller.abort(), 50);
    const results = await Promise.all(pending);
    expect(results.map((r) => r.cancelled)).toEqual([true, true, true]);
    expect([done.stdout, done.cancelled]).toEqual(["ok\n", false]);
  }, 10_000);

  it("a finished run's long timeout does not keep a Keel process alive", async () => {
    const driver = w.write(
      "driver.mts",
      `import { runProcess } from ${JSON.stringify(join(REPO, "src/hooks/process.ts"))};
const r = await runProcess({ command: "true", cwd: ${JSON.stringify(w.project)},
  env: process.env, stdin: "", timeoutMs: 600_000 });
process.stdout.write(JSON.stringify({ exitCode: r.exitCode }));
`,
    );
    const started = Date.now();
    const child = spawn(process.execPath, ["--import", "tsx", driver], {
      cwd: REPO,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
    });
    await new Promise((done) => child.on("exit", done));
    expect(JSON.parse(out)).toEqual({ exitCode: 0 });
    // tsx's start-up takes seconds under load; a timer held to the 600 s timeout takes minutes.
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 90_000);

  it("spawns through the seam", async () => {
    const calls: string[] = [];
    const counting: SpawnFn = (file, args, options) => {
      calls.push([file, ...args].join(" "));
      return spawn(file, [...args], options);
    };
    await runProcess({ ...base(), command: "true", spawn: counting });
    expect(calls).toEqual(["/bin/sh -c true"]);
  });
});

describe("what a hook leaves in its process group", () => {
  /** A hook that starts `sleep 9999` in its group, writes its pid, and exits 0 at once. */
  const leaver = (pidFile: string) => `sleep 9999 >/dev/null 2>&1 & echo $! > '${pidFile}'; exit 0`;

  it("lives past the hook's exit and is killed by killLeftoverGroups (session end)", async () => {
    const { killLeftoverGroups, leftoverGroupCount } = await import("../../src/hooks/process.js");
    const pidFile = join(w.root, "sleep.pid");
    const r = await runProcess({ ...base(), command: leaver(pidFile) });
    expect(r.exitCode).toBe(0);
    const pid = Number(readFileSync(pidFile, "utf8"));
    expect(alive(pid)).toBe(true);
    expect(leftoverGroupCount()).toBeGreaterThanOrEqual(1);
    await killLeftoverGroups(50);
    expect(await gone(pid)).toBe(true);
    expect(leftoverGroupCount()).toBe(0);
  });

  /** Runs the leaver hook in a Node process of its own, then `after` (source text), and
   *  returns that process's exit code and stdout (the hook's exit code, then what `after` wrote). */
  async function inOwnProcess(pidFile: string, after: string) {
    const script = join(w.root, "own.mts");
    const processTs = join(REPO, "src/hooks/process.ts");
    writeFileSync(
      script,
      `import { runProcess, killLeftoverGroups } from ${JSON.stringify(processTs)};\n` +
        `const r = await runProcess({ cwd: ${JSON.stringify(w.project)}, env: process.env, stdin: "", timeoutMs: 10000, command: ${JSON.stringify(leaver(pidFile))} });\n` +
        `process.stdout.write(String(r.exitCode));\n${after}\n`,
    );
    const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: REPO });
    let out = "";
    child.stdout.on("data", (c) => {
      out += c;
    });
    const code = await new Promise<number | null>((r) => child.on("close", r));
    return { code, out };
  }

  it("is killed when the process running the hooks exits, even without a session end", async () => {
    const pidFile = join(w.root, "sleep.pid");
    expect(await inOwnProcess(pidFile, "")).toEqual({ code: 0, out: "0" });
    expect(await gone(Number(readFileSync(pidFile, "utf8")))).toBe(true);
  });

  it("lets a process whose only work is session end exit normally (was: status 13, no output)", async () => {
    // `keel run` and `keel hooks test` await the engine's shutdown with nothing else keeping
    // Node alive: an unreferenced wait in killLeftoverGroups let Node exit in the middle of it.
    const pidFile = join(w.root, "sleep.pid");
    const after = `await killLeftoverGroups();\nprocess.stdout.write(" ended");`;
    expect(await inOwnProcess(pidFile, after)).toEqual({ code: 0, out: "0 ended" });
    expect(await gone(Number(readFileSync(pidFile, "utf8")))).toBe(true);
  });

  it("ends the wait at session end once the group is gone, not after the whole grace", async () => {
    const { killLeftoverGroups } = await import("../../src/hooks/process.js");
    await runProcess({ ...base(), command: leaver(join(w.root, "sleep.pid")) });
    const started = performance.now();
    await killLeftoverGroups(20_000);
    // `sleep` dies at SIGTERM; a zombie PID 1 has not reaped yet does not count.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("costs no wait at session end when the hooks left nothing running", async () => {
    const { killLeftoverGroups } = await import("../../src/hooks/process.js");
    // Through child_process: the native spawner already reports an empty group itself, so
    // the group would not be looked at again.
    await runProcess({ ...base(), command: "true", spawn });
    // The detach window (100 ms) applies only to groups that still have a process.
    const first = await Promise.race([
      killLeftoverGroups().then(() => "ended"),
      new Promise((r) => setTimeout(() => r("waited"), 90)),
    ]);
    expect(first).toBe("ended");
  });

  it("leaves a daemon the hook detached with setsid just before session end", async () => {
    const { killLeftoverGroups } = await import("../../src/hooks/process.js");
    const pidFile = join(w.root, "daemon.pid");
    await runProcess({
      ...base(),
      command: `setsid sh -c 'echo $$ > "${pidFile}"; exec sleep 9999' >/dev/null 2>&1 < /dev/null & exit 0`,
    });
    // At once, as `keel hooks test` does: the child may not have called setsid() yet.
    await killLeftoverGroups(50);
    for (let i = 0; i < 200; i++) {
      try {
        if (readFileSync(pidFile, "utf8").trim()) break;
      } catch {}
      await new Promise((r) => setTimeout(r, 10));
    }
    const pid = Number(readFileSync(pidFile, "utf8"));
    expect(alive(pid)).toBe(true);
    process.kill(pid, "SIGKILL");
  });

  it("is left alone when the hook detached it with setsid", async () => {
    const { killLeftoverGroups } = await import("../../src/hooks/process.js");
    const pidFile = join(w.root, "daemon.pid");
    await runProcess({
      ...base(),
      command: `setsid sh -c 'echo $$ > "${pidFile}"; exec sleep 9999' >/dev/null 2>&1 < /dev/null & exit 0`,
    });
    for (let i = 0; i < 200; i++) {
      try {
        if (readFileSync(pidFile, "utf8").trim()) break;
      } catch {}
      await new Promise((r) => setTimeout(r, 10));
    }
    const pid = Number(readFileSync(pidFile, "utf8"));
    await killLeftoverGroups(50);
    expect(alive(pid)).toBe(true);
    process.kill(pid, "SIGKILL");
  });
});
