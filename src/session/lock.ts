/**
 * One writer per session file: `<id>.jsonl.lock` holds the writer's pid, host and a nonce,
 * created with O_EXCL. A second `keel run -c` gets a clear error instead of interleaving its
 * records. A lock whose process is gone (a crash, `kill -9`) is stale and taken over at once.
 *
 * A pid file rather than proper-lockfile's mtime heartbeat: a crashed writer's lock is recovered
 * immediately (no stale timeout to wait out), and nothing needs a timer while the session is open.
 *
 * A pid alone does not name a process for long: after a reboot (or pid wrap-around) the pid in
 * an old lock may belong to an unrelated live process (pid 1, a shell), and the session would
 * stay "in use" forever. Where Linux's /proc is there, the lock also records the boot it was
 * taken in and the process's start time (field 22 of /proc/<pid>/stat, in clock ticks since
 * boot); a lock whose pid now runs a process started at another time, or in another boot, is
 * stale. A lock without them (written by an older Keel, or where /proc is absent) falls back to
 * the process's command line: one that is not node or keel is not the writer.
 */
import { randomUUID } from "node:crypto";
import {
  closeSync,
  lstatSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { hostname } from "node:os";
import { readRegularFileSync } from "../base/index.js";
import { SessionError } from "./load.js";

/** Thrown when another live process writes the session. The message is fit for the user. */
export class SessionLockedError extends SessionError {
  override name = "SessionLockedError";
}

/** A held lock; release() is idempotent and also runs when the process exits. */
export interface SessionLock {
  readonly path: string;
  release(): void;
}

interface LockBody {
  pid: number;
  host: string;
  nonce: string;
  since: string;
  /** The writer's start time, /proc/<pid>/stat field 22; absent where /proc is not there. */
  started?: string;
  /** /proc/sys/kernel/random/boot_id when the lock was taken. */
  boot?: string;
}

// Locks this process holds, counted: the TUI reopens its own session on /model before closing
// the old handle, and that must not lock itself out.
const heldHere = new Map<string, { count: number; nonce: string }>();

/** The lock file of a session file. */
export function lockPathFor(sessionPath: string): string {
  return `${sessionPath}.lock`;
}

function readBody(path: string): LockBody | null {
  try {
    // Non-blocking, regular files only: a FIFO lock hung `--resume` (attacks3/28).
    const v = JSON.parse(readRegularFileSync(path).toString("utf8")) as Partial<LockBody>;
    if (typeof v.pid === "number" && typeof v.host === "string") return v as LockBody;
  } catch {
    // Unreadable or half-written: treated as a lock whose owner cannot be known.
  }
  return null;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readProc(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** A process's start time (clock ticks since boot), or undefined without /proc. Read after the
 *  last `)`: the command name in field 2 may itself hold spaces and parentheses. */
export function processStartTime(pid: number): string | undefined {
  const stat = readProc(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields from 3 on: field 22 (starttime) is at index 22 - 3.
  return fields[19];
}

function bootId(): string | undefined {
  return readProc("/proc/sys/kernel/random/boot_id")?.trim();
}

/** Whether a live pid runs something that can be Keel: node (or a binary named keel) by its
 *  command line. Undefined when the command line cannot be read (no /proc, another user's). */
function looksLikeKeel(pid: number): boolean | undefined {
  const cmdline = readProc(`/proc/${pid}/cmdline`);
  if (cmdline === undefined || cmdline === "") return undefined;
  const argv0 = (cmdline.split("\0")[0] ?? "").split("/").pop() ?? "";
  return (
    /^(node|nodejs|keel)(\d[\d.]*)?$/.test(argv0) || /(^|[/\0])keel(\.m?js)?(\0|$)/.test(cmdline)
  );
}

/**
 * Whether the lock's writer is gone: same host, and its pid no longer runs — or runs another
 * process than the one that wrote the lock (another boot, another start time, or for a lock
 * without those, a command line that is not Keel's).
 */
function isStale(body: LockBody | null): boolean {
  if (body === null || body.host !== hostname() || body.pid === process.pid) return false;
  if (!alive(body.pid)) return true;
  const boot = bootId();
  if (body.boot !== undefined && boot !== undefined && body.boot !== boot) return true;
  const started = processStartTime(body.pid);
  if (body.started !== undefined && started !== undefined) return body.started !== started;
  return looksLikeKeel(body.pid) === false;
}

function tryCreate(path: string, body: LockBody): boolean {
  let fd: number;
  try {
    fd = openSync(path, "wx", 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
  try {
    writeSync(fd, JSON.stringify(body));
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Takes the lock of `sessionPath` or throws SessionLockedError naming the holder. A stale lock
 * is moved aside atomically (only one process can win that rename) and then replaced.
 */
export function lockSessionFile(sessionPath: string, sessionId: string): SessionLock {
  const path = lockPathFor(sessionPath);
  const mine = heldHere.get(path);
  if (mine !== undefined) {
    mine.count++;
    return held(path, mine.nonce);
  }
  const body: LockBody = {
    pid: process.pid,
    host: hostname(),
    nonce: randomUUID(),
    since: new Date().toISOString(),
    started: processStartTime(process.pid),
    boot: bootId(),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    if (tryCreate(path, body)) {
      heldHere.set(path, { count: 1, nonce: body.nonce });
      return held(path, body.nonce);
    }
    refuseOddLock(path);
    const holder = readBody(path);
    if (!isStale(holder)) {
      const who = holder
        ? `Keel process ${holder.pid}${holder.host !== hostname() ? ` on ${holder.host}` : ""}, since ${holder.since}`
        : "another Keel process";
      throw new SessionLockedError(
        `session ${sessionId.slice(0, 8)} is in use by ${who}; wait for it to finish, or start a new session (without -c/--resume). If no Keel is running, delete ${path}`,
      );
    }
    const aside = `${path}.stale-${body.nonce}`;
    try {
      renameSync(path, aside);
    } catch {
      continue; // Someone else moved it first: try again from the top.
    }
    const moved = readBody(aside);
    if (isStale(moved)) {
      unlinkSync(aside);
    } else {
      // A live writer's fresh lock was moved by mistake: put it back and report it as held.
      try {
        renameSync(aside, path);
      } catch {
        // Nothing better to do; the next attempt reads whatever is there.
      }
    }
  }
  throw new SessionLockedError(
    `session ${sessionId.slice(0, 8)} is being opened by another Keel process at the same time; try again`,
  );
}

/** A lock path that is not a plain file (a FIFO, a link, a folder) was not made by Keel: say so
 *  rather than treat it as a lock (or follow it). */
function refuseOddLock(path: string): void {
  let odd: boolean;
  try {
    odd = !lstatSync(path).isFile();
  } catch {
    return; // Gone since: the next attempt creates it.
  }
  if (odd) {
    throw new SessionError(
      `the session's lock ${path} is not a regular file (a FIFO, link or directory), so Keel did not make it; delete it and try again`,
    );
  }
}

function held(path: string, nonce: string): SessionLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.removeListener("exit", release);
    const mine = heldHere.get(path);
    if (mine !== undefined && mine.nonce === nonce && --mine.count > 0) return;
    heldHere.delete(path);
    // Only remove our own lock (a stale takeover may have replaced it).
    if (readBody(path)?.nonce !== nonce) return;
    try {
      unlinkSync(path);
    } catch {
      // Already gone.
    }
  };
  process.once("exit", release);
  return { path, release };
}
