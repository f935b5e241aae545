/**
 * Running one hook process: its own process group, payload on stdin (a hook that never reads
 * it is fine), capped and safely decoded output, and a kill path (SIGTERM to the group, then
 * SIGKILL) that a grandchild holding the pipes cannot stall. Processes start through the native
 * spawner where it is built (fast-spawn.ts), else child_process.spawn; a seam lets tests and
 * benchmarks count or replace spawning. Whatever a hook leaves running in its group
 * (`sleep 9999 & exit 0`) is killed by `killLeftoverGroups` (engine shutdown, i.e. session end)
 * or when Keel exits, whichever comes first; a hook that wants a daemon must leave the group
 * (setsid).
 */
import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { withGitSafety } from "../base/index.js";
import { KILL_GRACE_MS } from "./events.js";
import { fastRun } from "./fast-spawn.js";
import type { RawRunResult } from "./handlers/types.js";

/** The spawn seam (node's `child_process.spawn` by default). */
export type SpawnFn = (
  file: string,
  args: readonly string[],
  options: SpawnOptions,
) => ChildProcess;

/** Default cap on each of stdout and stderr. */
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;

/** After the hook exits, how long its pipes may stay open (a grandchild holding them) before
 *  the engine stops reading and moves on. */
export const PIPE_GRACE_MS = 200;

/** What to run. Exactly one of `command` (run with `sh -c`) and `args` (exec form). */
export interface ProcessSpec {
  command?: string;
  args?: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin: string;
  timeoutMs: number;
  signal?: AbortSignal;
  maxOutputBytes?: number;
  killGraceMs?: number;
  spawn?: SpawnFn;
}

/** What happened (a command handler's raw result without its tag). Never thrown: failures to
 *  start are `startError`. */
export type ProcessResult = Omit<RawRunResult, "kind">;

/** Invalid UTF-8 (and a character cut by the cap) becomes U+FFFD instead of throwing. One
 *  decoder serves every hook: without `stream`, decode() keeps nothing between calls. */
const utf8 = new TextDecoder("utf-8", { fatal: false });

/** Collects at most `max` bytes while the stream keeps being drained. */
class Capture {
  private chunks: Buffer[] = [];
  private size = 0;
  truncated = false;
  constructor(private readonly max: number) {}
  push(chunk: Buffer): void {
    const room = this.max - this.size;
    if (room <= 0) {
      this.truncated = true;
      return;
    }
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (part.length < chunk.length) this.truncated = true;
    this.chunks.push(part);
    this.size += part.length;
  }
  text(): string {
    if (this.size === 0) return "";
    return utf8.decode(
      this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.size),
    );
  }
}

/** Signals the hook's process group (it leads one: detached), or the child alone when the
 *  group is gone and child_process started it. */
function killGroup(pid: number | undefined, sig: NodeJS.Signals, child?: ChildProcess): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, sig);
  } catch {
    try {
      child?.kill(sig);
    } catch {
      // Already gone.
    }
  }
}

/** Process groups of hooks that exited while something in the group still ran. */
const leftovers = new Set<number>();
/** Groups of finished hooks not looked at yet. Checking each at once puts a failed
 *  `kill(-pgid, 0)` (an exception) between one hook and the next when hooks run one after
 *  another; they are checked together instead, within a second or before any signal. */
const unchecked = new Set<number>();
let sweepTimer: NodeJS.Timeout | undefined;
let exitHandlerInstalled = false;
/** How long a finished hook's group may wait to be checked. Far too short for the kernel to
 *  hand the same id to a new group (ids are given out in order, up to pid_max). */
const SWEEP_DELAY_MS = 1000;
/** How long after a hook exits its background children get to leave its group (`setsid … &`
 *  forks, then detaches: in between it is still in the group) before session end signals it. */
const DETACH_WINDOW_MS = 100;
/** When the last tracked hook finished (performance.now()). */
let lastFinish = -Infinity;
/** How often session end looks whether the signalled groups are gone. */
const POLL_MS = 10;

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    // EPERM: the group exists but is not ours to signal (setuid child) — nothing we can do.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether group `pgid` still has a process that is not a zombie. A killed process whose
 *  parent is gone waits for PID 1 to reap it, and a container's PID 1 may reap late or never:
 *  kill(-pgid, 0) counts such a zombie. Reads /proc (Linux); elsewhere, `groupAlive`. */
function groupRunning(pgid: number): boolean {
  if (!groupAlive(pgid)) return false;
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((e) => e >= "0" && e <= "9~");
  } catch {
    return true;
  }
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    } catch {
      continue; // Gone meanwhile.
    }
    // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ", 3);
    if (Number(pgrp) === pgid && state !== "Z" && state !== "X") return true;
  }
  return false;
}

/** Keeps the unchecked groups that still run and drops every empty group, so a group id the
 *  kernel may reuse is never kept longer than needed. */
function sweep(): void {
  if (sweepTimer !== undefined) clearTimeout(sweepTimer);
  sweepTimer = undefined;
  for (const g of unchecked) if (groupAlive(g)) leftovers.add(g);
  unchecked.clear();
  for (const g of leftovers) if (!groupAlive(g)) leftovers.delete(g);
}

/** Notes a finished hook's group: anything still running in it is killed at session end or
 *  when Keel exits. */
function trackLeftovers(pgid: number | undefined): void {
  if (pgid === undefined) return;
  unchecked.add(pgid);
  lastFinish = performance.now();
  sweepTimer ??= setTimeout(sweep, SWEEP_DELAY_MS).unref();
  if (!exitHandlerInstalled) {
    exitHandlerInstalled = true;
    // 'exit' handlers must be synchronous: SIGKILL, no grace.
    process.on("exit", () => {
      sweep();
      signalLeftovers("SIGKILL");
    });
  }
}

function signalLeftovers(sig: NodeJS.Signals): void {
  for (const g of leftovers) {
    try {
      process.kill(-g, sig);
    } catch {
      leftovers.delete(g);
    }
  }
}

/** Kills what finished hooks left in their process groups: SIGTERM, then SIGKILL after
 *  `graceMs` to whatever is still there (or at process exit). Called at session end. Resolves
 *  once every group is gone or SIGKILL is sent. The waits are referenced timers: a short-lived
 *  Keel (`keel run`, `keel hooks test`) awaits this with nothing else keeping Node alive, and
 *  an unreferenced wait let it exit mid-await (status 13, no output). */
export async function killLeftoverGroups(graceMs = KILL_GRACE_MS): Promise<void> {
  sweep();
  if (leftovers.size === 0) return;
  // Only when something is left: a group that is already empty costs no wait.
  const detaching = DETACH_WINDOW_MS - (performance.now() - lastFinish);
  if (detaching > 0) {
    await delay(detaching);
    sweep();
    if (leftovers.size === 0) return;
  }
  signalLeftovers("SIGTERM");
  const deadline = performance.now() + graceMs;
  while (performance.now() < deadline) {
    await delay(Math.min(POLL_MS, Math.max(1, deadline - performance.now())));
    sweep();
    if (![...leftovers].some(groupRunning)) {
      leftovers.clear();
      return;
    }
  }
  signalLeftovers("SIGKILL");
  leftovers.clear();
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** How many finished hooks' groups still have running processes (for tests and doctor). */
export function leftoverGroupCount(): number {
  sweep();
  return leftovers.size;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Where a run's events go, whichever way it was started. */
interface RunEvents {
  output(stdout: Buffer, stderr: Buffer, truncated: boolean): void;
  exit(code: number | null, signal: string | null): void;
  /** The end: exited and the pipes closed (or given up). `leftover`: whether something still
   *  runs in its process group, when the spawner knows (else it is looked at later). */
  close(code: number | null, signal: string | null, leftover?: boolean): void;
  startError(message: string): void;
}

/** Starts the process through the native spawner (fast-spawn.ts: why): the pid, or null when
 *  child_process should start it. Throws what it cannot start. */
function startNative(file: string, args: string[], spec: ProcessSpec, to: RunEvents) {
  return fastRun(
    file,
    args,
    {
      cwd: spec.cwd,
      env: spec.env,
      stdin: spec.stdin,
      maxOutputBytes: spec.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
      pipeGraceMs: PIPE_GRACE_MS,
    },
    (r) => {
      if (!r.final) return to.exit(r.exitCode, r.signal);
      to.output(r.stdout, r.stderr, r.truncated);
      to.close(r.exitCode, r.signal, r.leftover);
    },
  );
}

/** Starts the process through child_process.spawn (or the seam) and wires its streams. Returns
 *  the child and a function that stops reading its pipes. Throws what it cannot start. */
function startChild(file: string, args: string[], spec: ProcessSpec, to: RunEvents) {
  const child = (spec.spawn ?? spawn)(file, args, {
    cwd: spec.cwd,
    env: spec.env,
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const empty = Buffer.alloc(0);
  child.stdout?.on("data", (c: Buffer) => to.output(c, empty, false));
  child.stderr?.on("data", (c: Buffer) => to.output(empty, c, false));
  // EPIPE when the hook exits without reading its payload is normal, not a failure.
  child.stdin?.on("error", () => {});
  child.stdout?.on("error", () => {});
  child.stderr?.on("error", () => {});
  child.on("error", (e) => {
    if (child.pid === undefined) to.startError(`cannot start hook: ${message(e)}`);
  });
  let grace: NodeJS.Timeout | undefined;
  child.on("exit", (code, signal) => {
    to.exit(code, signal);
    // A grandchild may hold the pipes: give them a little while, then stop reading.
    grace = setTimeout(() => to.close(code, signal), PIPE_GRACE_MS);
  });
  child.on("close", (code, signal) => to.close(code, signal));
  child.stdin?.end(spec.stdin);
  const release = (): void => {
    clearTimeout(grace);
    child.stdout?.destroy();
    child.stderr?.destroy();
    child.stdin?.destroy();
  };
  return { child, release };
}

/** The shared part of layered hook environments with git's safety overrides, made once each. */
const safeBases = new WeakMap<object, NodeJS.ProcessEnv>();

/**
 * `withGitSafety(env)`, kept layered when `env` is (hook-env.ts: the user's environment as its
 * prototype, the hook's own variables on top): the overrides go onto a copy of the shared part,
 * made once, so the spawner's cached `KEY=value` strings of it (fast-spawn.ts) serve every hook
 * instead of the whole environment being copied and re-encoded per hook run. The variables are
 * the same either way; an own variable that is one of git's (GIT_CONFIG_COUNT…) takes the flat
 * copy, where withGitSafety numbers its overrides after it.
 */
function gitSafeEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const shared = Object.getPrototypeOf(env) as object | null;
  const layered =
    shared !== null &&
    shared !== Object.prototype &&
    Object.getPrototypeOf(shared) === Object.prototype;
  if (!layered || Object.keys(env).some((k) => k.startsWith("GIT_"))) return withGitSafety(env);
  let base = safeBases.get(shared);
  if (base === undefined) {
    base = withGitSafety(shared as NodeJS.ProcessEnv);
    safeBases.set(shared, base);
  }
  return Object.assign(Object.create(base) as NodeJS.ProcessEnv, env);
}

/** Runs one process to completion, timeout or cancellation. Never throws. */
export function runProcess(given: ProcessSpec): Promise<ProcessResult> {
  // Every hook process (project and user) gets git's safety overrides: a trusted `git status`
  // must not run the repository's core.fsmonitor (base/child-env.ts withGitSafety).
  const spec = { ...given, env: gitSafeEnv(given.env) };
  const started = performance.now();
  const max = spec.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const grace = spec.killGraceMs ?? KILL_GRACE_MS;
  const base = {
    exitCode: null,
    signal: null,
    stdout: "",
    stderr: "",
    truncated: false,
    timedOut: false,
    cancelled: false,
    startError: null,
  };
  if (spec.signal?.aborted) return Promise.resolve({ ...base, cancelled: true, durationMs: 0 });
  const [file, ...args] =
    spec.args !== undefined ? spec.args : ["/bin/sh", "-c", spec.command ?? ""];
  if (file === undefined || file === "") {
    return Promise.resolve({ ...base, startError: "empty command", durationMs: 0 });
  }

  return new Promise((resolve) => {
    const out = new Capture(max);
    const err = new Capture(max);
    let exit: { code: number | null; signal: string | null } | null = null;
    let timedOut = false;
    let cancelled = false;
    let startError: string | null = null;
    let settled = false;
    let killing = false;
    let groupEmpty = false;
    let pid: number | undefined;
    let child: ChildProcess | undefined;
    let release = (): void => {};
    const timers: NodeJS.Timeout[] = [];

    const finish = (): void => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      spec.signal?.removeEventListener("abort", onAbort);
      // A grandchild may still hold the pipes: stop reading them so nothing holds the engine.
      release();
      if (exit && !killing && !groupEmpty) trackLeftovers(pid);
      resolve({
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        stdout: out.text(),
        stderr: err.text(),
        truncated: out.truncated || err.truncated,
        timedOut,
        cancelled,
        startError,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
      });
    };
    const events: RunEvents = {
      output(stdout, stderr, truncated) {
        if (stdout.length > 0) out.push(stdout);
        if (stderr.length > 0) err.push(stderr);
        if (truncated) out.truncated = true;
      },
      exit(code, signal) {
        exit = { code, signal };
      },
      close(code, signal, leftover) {
        exit ??= { code, signal };
        groupEmpty = leftover === false;
        finish();
      },
      startError(text) {
        startError = text;
        finish();
      },
    };

    try {
      pid = spec.spawn ? undefined : (startNative(file, args, spec, events) ?? undefined);
      if (pid === undefined) {
        const spawned = startChild(file, args, spec, events);
        child = spawned.child;
        pid = child.pid;
        release = spawned.release;
      }
    } catch (e) {
      resolve({ ...base, startError: `cannot start hook: ${message(e)}`, durationMs: 0 });
      return;
    }

    const stop = (): void => {
      if (killing) return;
      killing = true;
      killGroup(pid, "SIGTERM", child);
      // The SIGKILL stays armed after we resolve (the shell may die at SIGTERM while a child
      // that traps it lives on), and it keeps the event loop alive: a short-lived Keel
      // (`keel hooks test`, exit after SessionEnd) must not exit and leave the group running.
      setTimeout(() => killGroup(pid, "SIGKILL", child), grace);
      timers.push(setTimeout(finish, grace + 100));
    };
    function onAbort(): void {
      if (settled || exit) return;
      cancelled = true;
      stop();
    }
    spec.signal?.addEventListener("abort", onAbort, { once: true });
    timers.push(
      setTimeout(
        () => {
          if (settled || exit) return;
          timedOut = true;
          stop();
        },
        Math.max(0, spec.timeoutMs),
      ),
    );
  });
}
