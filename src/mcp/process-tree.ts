/**
 * The processes a stdio MCP server started, so closing it ends them too. The SDK signals only
 * the process it spawned; a server started through a wrapper (`sh -c …`, `npx -y …`) leaves the
 * real server running, holding the pipes open, and Keel waiting on them (`keel run` did not exit
 * until it died). Linux /proc only; elsewhere nothing is found and the SDK's own signals remain.
 */
import { readdirSync, readFileSync } from "node:fs";

/** A process as found: its pid and start time (so a reused pid is not signalled). */
export interface FoundProcess {
  pid: number;
  start: string;
}

/** pid, parent pid and start time from /proc/PID/stat (the name may hold spaces or parens). */
function statOf(pid: number): { ppid: number; start: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // After the name: state(0) ppid(1) … starttime is field 22 of the whole line, 19 here.
    return { ppid: Number(fields[1]), start: fields[19] ?? "" };
  } catch {
    return null;
  }
}

/**
 * `pid` and every process below it, parents first; nothing when `pid` is no longer a child of
 * this process (it exited and the number may belong to someone else now).
 */
export function processTree(pid: number): FoundProcess[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const children = new Map<number, FoundProcess[]>();
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    const child = Number(name);
    const st = statOf(child);
    if (st === null) continue;
    const list = children.get(st.ppid) ?? [];
    list.push({ pid: child, start: st.start });
    children.set(st.ppid, list);
  }
  const root = statOf(pid);
  if (root === null || root.ppid !== process.pid) return [];
  const out: FoundProcess[] = [{ pid, start: root.start }];
  for (let i = 0; i < out.length && out.length < 10_000; i++) {
    out.push(...(children.get((out[i] as FoundProcess).pid) ?? []));
  }
  return out;
}

/** Sends `signal` to each process still alive as the same process (start time unchanged). */
export function signalProcesses(found: readonly FoundProcess[], signal: NodeJS.Signals): void {
  for (const p of found) {
    if (statOf(p.pid)?.start !== p.start) continue;
    try {
      process.kill(p.pid, signal);
    } catch {
      // Gone in between.
    }
  }
}

/** How long a server's processes get to end on SIGTERM before they are killed. */
export const TERM_GRACE_MS = 2000;

/**
 * Ends `pid` and everything below it: SIGTERM now, SIGKILL after `graceMs` to whichever of them
 * (the same processes, found now) is still alive. A server that ignores SIGTERM, or a child it
 * left holding Keel's pipes after it died, would otherwise keep `keel run` from exiting; the tree
 * is found now because once the server is gone its orphans can no longer be traced to it. The
 * timer does not hold Keel open by itself: it fires only while something still does.
 */
export function endProcessTree(pid: number, graceMs = TERM_GRACE_MS): void {
  const found = processTree(pid);
  signalProcesses(found, "SIGTERM");
  if (found.length > 0) setTimeout(() => signalProcesses(found, "SIGKILL"), graceMs).unref();
}
