/**
 * The process groups of hook processes (process.ts): signalling one, and what finished hooks
 * leave running in theirs (`sleep 9999 & exit 0`), killed by `killLeftoverGroups` at session end
 * or when Keel exits, whichever comes first.
 */
import { readdirSync, readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { KILL_GRACE_MS } from "./events.js";

/** Signals the hook's process group (it leads one: detached), or the child alone when the
 *  group is gone and child_process started it. */
export function killGroup(
  pid: number | undefined,
  sig: NodeJS.Signals,
  child?: { kill(sig: NodeJS.Signals): boolean },
): void {
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
export function trackLeftovers(pgid: number | undefined): void {
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
