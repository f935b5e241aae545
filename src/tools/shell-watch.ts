/**
 * Watching a started foreground command to its end (shell.ts): its output pipes, the directory
 * report on fd 3 (shell-cwd.ts), the timeout and the abort, and the kill sequence — SIGTERM to
 * the whole process group, SIGKILL after a grace. It starts nothing; shell.ts starts the command
 * and turns how it ended into the tool's result.
 */
import type { Readable, Writable } from "node:stream";
import { describeError } from "./result.js";

/** Why a command stopped: by itself, or killed by Keel. */
export type Ending = "exited" | "timeout" | "aborted";

const KILL_GRACE_MS = 500;
/** How long to wait for pipes held by background grandchildren after the shell exits. */
const PIPE_DRAIN_MS = 250;

/** How a watched command ended. */
export interface CommandEnd {
  readonly ending: Ending;
  readonly exitCode: number | null;
  readonly exitSignal: NodeJS.Signals | null;
  /** The child could not run (its "error" event). */
  readonly spawnError: string | undefined;
  /** What the wrapper wrote on fd 3 (at most about 16 KB). */
  readonly cwdReport: string;
}

/** What the watch needs besides the child. */
export interface WatchOptions {
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  /** Signals a whole process group (ShellOperations.killGroup). */
  readonly killGroup: (pid: number, signal: NodeJS.Signals) => void;
  readonly onStdout: (chunk: Buffer) => void;
  readonly onStderr: (chunk: Buffer) => void;
}

/**
 * What the watch uses of a started child (a node:child_process ChildProcess; only shell.ts,
 * which starts it, imports that module: test/security/execution-sites.test.ts).
 */
export interface WatchedChild {
  readonly pid?: number | undefined;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  /** fd 3, when the command was started with reportCwd (shell-cwd.ts). */
  readonly stdio: readonly (Readable | Writable | null | undefined)[];
  on(event: "error", listener: (err: Error) => void): unknown;
  on(
    event: "exit",
    listener: (code: number | null, signal: NodeJS.Signals | null) => void,
  ): unknown;
}

/** The pipe the directory report comes on, when the operations gave one. */
type CwdPipe = Readable | Writable | null;

interface WatchState {
  ending: Ending;
  exitCode: number | null;
  exitSignal: NodeJS.Signals | null;
  exited: boolean;
  openPipes: number;
  finished: boolean;
  readonly timers: NodeJS.Timeout[];
  cwdReport: string;
}

/**
 * Resolves once the shell exited and its pipes closed (or a short grace passed: background
 * processes that outlive the shell keep running, but their output is detached), or once a
 * timeout's or abort's kill sequence gave up on them.
 */
export function watchCommand(child: WatchedChild, o: WatchOptions): Promise<CommandEnd> {
  return new Promise<CommandEnd>((resolve) => {
    // What the wrapper reports on fd 3 (shell-cwd.ts); a test's operations may give no fd 3.
    const cwdPipe: CwdPipe = child.stdio[3] ?? null;
    const s: WatchState = {
      ...{ ending: "exited", exitCode: null, exitSignal: null, exited: false },
      ...{ openPipes: cwdPipe === null ? 2 : 3, finished: false, timers: [], cwdReport: "" },
    };
    const finish = (spawnError?: string) => {
      if (s.finished) return;
      s.finished = true;
      for (const t of s.timers) clearTimeout(t);
      o.signal.removeEventListener("abort", onAbort);
      // Background grandchildren may still hold the pipes; stop reading so nothing waits on them.
      child.stdout?.destroy();
      child.stderr?.destroy();
      cwdPipe?.destroy();
      const { ending, exitCode, exitSignal, cwdReport } = s;
      resolve({ ending, exitCode, exitSignal, spawnError, cwdReport });
    };
    const kill = (why: Ending) => killSequence(child.pid, why, s, o.killGroup, finish);
    const onAbort = () => kill("aborted");
    o.signal.addEventListener("abort", onAbort, { once: true });
    s.timers.push(setTimeout(() => kill("timeout"), o.timeoutMs));
    readPipes(child, cwdPipe, s, o, finish);
    child.on("error", (err) => {
      s.exited = true;
      finish(describeError(err));
    });
    child.on("exit", (code, sig) => {
      s.exited = true;
      s.exitCode = code;
      s.exitSignal = sig;
      if (s.openPipes === 0) finish();
      // After a kill, the kill sequence decides when to stop waiting for the pipes.
      else if (s.ending === "exited") s.timers.push(setTimeout(() => finish(), PIPE_DRAIN_MS));
    });
  });
}

/** A timeout or an abort: SIGTERM to the group, SIGKILL after a grace, then stop waiting. */
function killSequence(
  pid: number | undefined,
  why: Ending,
  s: WatchState,
  killGroup: WatchOptions["killGroup"],
  finish: () => void,
): void {
  if (s.ending !== "exited" || s.exited) return;
  s.ending = why;
  if (pid === undefined) {
    finish();
    return;
  }
  killGroup(pid, "SIGTERM");
  // Not cleared by finish(): members that trapped SIGTERM die even if the pipes closed early.
  const killTimer = setTimeout(() => {
    killGroup(pid, "SIGKILL");
    // Whatever still holds the pipes after SIGKILL of the group is outside it: give up.
    s.timers.push(setTimeout(() => finish(), KILL_GRACE_MS));
  }, KILL_GRACE_MS);
  killTimer.unref();
}

/** Output to its sinks, the fd 3 report kept; the watch ends when all pipes closed after exit. */
function readPipes(
  child: WatchedChild,
  cwdPipe: CwdPipe,
  s: WatchState,
  o: WatchOptions,
  finish: () => void,
): void {
  child.stdout?.on("data", o.onStdout);
  child.stderr?.on("data", o.onStderr);
  const onPipeClosed = () => {
    s.openPipes -= 1;
    if (s.openPipes === 0 && s.exited) finish();
  };
  child.stdout?.on("close", onPipeClosed);
  child.stderr?.on("close", onPipeClosed);
  if (cwdPipe !== null) {
    cwdPipe.on("data", (chunk: Buffer) => {
      // A path, not output: a few KB at most is ever a directory name.
      if (s.cwdReport.length < 16_384) s.cwdReport += chunk.toString("utf8");
    });
    cwdPipe.on("close", onPipeClosed);
    cwdPipe.on("error", () => {});
  }
}
