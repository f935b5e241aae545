/**
 * Starting hook processes without forking the agent. `child_process.spawn` forks all of Keel
 * (libuv uses fork() on Linux) and blocks the event loop until the child has exec'd: ~1–1.7 ms
 * per hook at Keel's size, paid in full by hooks that run one after another. The native
 * spawner (native/keel-spawn.c, built by `npm run build` where a C compiler is) uses vfork,
 * which copies nothing: ~0.2 ms.
 *
 * `fastSpawn` starts what runProcess asks child_process.spawn for (a detached child with three
 * pipes) and gives the same events, pids, exit codes, signal names and start-up errors. It
 * writes the payload itself, at once, while the hook starts: written later, after the streams
 * are set up, it often finds a hook that never reads stdin already gone (an EPIPE error built
 * and thrown away per hook). It returns null where the spawner is not built or
 * KEEL_NATIVE_SPAWN=0, and for what it does not do the same way (a program without a `/`,
 * which needs a PATH lookup; a string holding a NUL): runProcess then uses child_process.spawn.
 */
import { EventEmitter } from "node:events";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { Socket } from "node:net";
import { constants } from "node:os";
import type { Readable, Writable } from "node:stream";

interface Native {
  spawn(
    file: string,
    argv: string[],
    envp: string[],
    cwd: string,
    payload: Buffer,
  ): [number, number, number, number, number];
  reap(pid: number): [number, number] | null;
}

/** The spawner next to the bundle (dist/bundle → dist/native), tsc's output (dist/hooks →
 *  dist/native) or, for tests run from source, the built one (src/hooks → dist/native). */
const CANDIDATES = ["../native/keel-spawn.node", "../../dist/native/keel-spawn.node"];

function load(): Native | null {
  if (process.env.KEEL_NATIVE_SPAWN === "0" || process.platform !== "linux") return null;
  const require = createRequire(import.meta.url);
  for (const rel of CANDIDATES) {
    const path = new URL(rel, import.meta.url);
    if (!existsSync(path)) continue;
    try {
      return require(path.pathname) as Native;
    } catch {
      // Built for another platform or Node ABI: child_process.spawn it is.
    }
  }
  return null;
}

/** Loaded on first use: commands that run no hook (`keel --help`, `hooks list`) skip dlopen. */
let loaded: Native | null | undefined;
const nativeSpawner = (): Native | null => {
  loaded ??= load();
  return loaded;
};

/** Whether hooks start through the native spawner (for `keel doctor` and tests). */
export function nativeSpawnAvailable(): boolean {
  return nativeSpawner() !== null;
}

const signalName = (n: number): NodeJS.Signals | null =>
  (Object.entries(constants.signals).find(([, v]) => v === n)?.[0] as NodeJS.Signals) ?? null;
const errnoName = (n: number): string =>
  Object.entries(constants.errno).find(([, v]) => v === n)?.[0] ?? "UNKNOWN";

/** Children started here that have not been reaped, by pid. */
const running = new Map<number, NativeChild>();
let listening = false;

function reapAll(): void {
  for (const [pid, child] of running) {
    const status = loaded?.reap(pid);
    if (status) {
      running.delete(pid);
      child.exited(status[0], status[1]);
    }
  }
}

/** A child started by the native spawner, with the ChildProcess members runProcess uses. Its
 *  payload is written already: `stdin` is null, or the pipe taking the rest of a payload larger
 *  than the pipe holds. */
class NativeChild extends EventEmitter {
  readonly stdin: Writable | null = null;
  readonly stdout: Readable;
  readonly stderr: Readable;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  private openPipes = 2;
  private done = false;
  private closed = false;

  constructor(
    readonly pid: number,
    fds: { stdin: number; stdout: number; stderr: number },
    rest: Buffer,
  ) {
    super();
    if (fds.stdin >= 0) {
      const stdin = new Socket({ fd: fds.stdin, readable: false, writable: true });
      // EPIPE when the hook exits without reading its payload is normal, not a failure.
      stdin.on("error", () => {});
      stdin.end(rest);
      this.stdin = stdin;
    }
    this.stdout = new Socket({ fd: fds.stdout, readable: true, writable: false });
    this.stderr = new Socket({ fd: fds.stderr, readable: true, writable: false });
    for (const pipe of [this.stdout, this.stderr]) {
      pipe.once("close", () => {
        this.openPipes -= 1;
        // Both pipes closed usually means the child is gone: look now instead of waiting for
        // SIGCHLD, which may have come before this child was listed.
        if (this.openPipes === 0) {
          reapAll();
          if (!this.done) this.watch(1);
        }
        this.maybeClose();
      });
    }
  }

  /** Until it is reaped, a timer keeps the event loop alive (as a ChildProcess's handle does;
   *  the SIGCHLD listener does not) and looks again, backing off to 100 ms, in case a SIGCHLD
   *  went to a reap that came too early. */
  private watch(ms: number): void {
    setTimeout(() => {
      if (this.done) return;
      reapAll();
      if (!this.done) this.watch(Math.min(ms * 2, 100));
    }, ms);
  }

  exited(code: number, signal: number): void {
    this.exitCode = code >= 0 ? code : null;
    this.signalCode = signal >= 0 ? signalName(signal) : null;
    this.done = true;
    this.emit("exit", this.exitCode, this.signalCode);
    this.maybeClose();
  }

  /** 'close' once, after the exit and both pipes' end (a reap from a pipe's close handler
   *  would otherwise reach here twice). */
  private maybeClose(): void {
    if (this.closed || !this.done || this.openPipes > 0) return;
    this.closed = true;
    this.emit("close", this.exitCode, this.signalCode);
  }

  kill(signal: NodeJS.Signals | number = "SIGTERM"): boolean {
    // Once reaped, the pid may belong to someone else.
    if (this.done) return false;
    try {
      process.kill(this.pid, signal);
      return true;
    } catch {
      return false;
    }
  }
}

/** Node's message for a child that could not start ("spawn /bin/sh ENOENT"), with its code. */
function startError(file: string, err: unknown): Error {
  const errno = (err as { errno?: number }).errno ?? 0;
  const code = errnoName(errno);
  return Object.assign(new Error(`spawn ${file} ${code}`), { code, errno: -errno, path: file });
}

/**
 * Starts `file` with `args` (argv[0] is `file`, as child_process.spawn does) in its own session
 * with three pipes and `stdin` written to the first, or returns null when child_process.spawn
 * should do it. Throws Node's start-up error (`spawn /bin/sh ENOENT` for a missing program or
 * cwd).
 */
export function fastSpawn(
  file: string,
  args: readonly string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; stdin: string },
): NativeChild | null {
  const native = file.includes("/") ? nativeSpawner() : null;
  if (native === null) return null;
  const envp: string[] = [];
  for (const [k, v] of Object.entries(opts.env)) if (v !== undefined) envp.push(`${k}=${v}`);
  const strings = [file, opts.cwd, ...args, ...envp];
  if (strings.some((s) => s.includes("\0"))) return null;
  // Listening before the first spawn: a SIGCHLD for a child not yet listed is answered by the
  // pipes' close above. The listener keeps nothing alive (Node unrefs signal handles).
  if (!listening) {
    listening = true;
    process.on("SIGCHLD", reapAll);
  }
  const payload = Buffer.from(opts.stdin, "utf8");
  let started: [number, number, number, number, number];
  try {
    started = native.spawn(file, [file, ...args], envp, opts.cwd, payload);
  } catch (err) {
    throw startError(file, err);
  }
  const [pid, stdin, stdout, stderr, written] = started;
  const child = new NativeChild(pid, { stdin, stdout, stderr }, payload.subarray(written));
  running.set(pid, child);
  return child;
}
