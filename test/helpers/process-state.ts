/**
 * What one test file can leave behind in its process for the next file that shares the worker
 * (vitest.config.ts, project "shared"): a snapshot before the file, compared after it by
 * test/helpers/leak-guard.ts.
 */

/**
 * Process events a test or the CLI might listen to and forget. Not "exit": Keel installs one
 * exit handler per process on first use by design (src/session/jsonl.ts, src/hooks/process.ts),
 * and an exit handler runs when the worker ends, after every verdict.
 */
const EVENTS = [
  "SIGINT",
  "SIGTERM",
  "SIGHUP",
  "SIGQUIT",
  "SIGWINCH",
  "uncaughtException",
  "unhandledRejection",
  "warning",
] as const;

/** Handle kinds a finished file must not leave open: servers and child processes. */
const HANDLES = ["TCPServerWrap", "PipeServerWrap", "ProcessWrap"] as const;

/** The process-wide state a file must hand on as it found it. */
export interface ProcessState {
  env: Record<string, string | undefined>;
  cwd: string;
  umask: number;
  exitCode: typeof process.exitCode;
  listeners: Record<string, number>;
  stdoutWrite: typeof process.stdout.write;
  stderrWrite: typeof process.stderr.write;
  handles: Record<string, number>;
}

/** The state now. */
export function processState(): ProcessState {
  const handles: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo())
    if ((HANDLES as readonly string[]).includes(kind)) handles[kind] = (handles[kind] ?? 0) + 1;
  return {
    env: { ...process.env },
    cwd: process.cwd(),
    umask: process.umask(),
    exitCode: process.exitCode,
    listeners: Object.fromEntries(EVENTS.map((e) => [e, process.listenerCount(e)])),
    stdoutWrite: process.stdout.write,
    stderrWrite: process.stderr.write,
    handles,
  };
}

/** What differs from `before` in a way the next file would see, one line each. */
export function leftBehind(before: ProcessState, after: ProcessState): string[] {
  const out: string[] = [];
  for (const key of new Set([...Object.keys(before.env), ...Object.keys(after.env)]))
    if (before.env[key] !== after.env[key]) out.push(`process.env.${key} changed`);
  if (before.cwd !== after.cwd) out.push(`cwd ${before.cwd} -> ${after.cwd}`);
  if (before.umask !== after.umask) out.push(`umask ${before.umask} -> ${after.umask}`);
  if (before.exitCode !== after.exitCode)
    out.push(`process.exitCode ${before.exitCode} -> ${after.exitCode}`);
  for (const e of EVENTS) {
    const grew = (after.listeners[e] ?? 0) - (before.listeners[e] ?? 0);
    if (grew > 0) out.push(`${grew} more process "${e}" listener(s)`);
  }
  if (before.stdoutWrite !== after.stdoutWrite) out.push("process.stdout.write left replaced");
  if (before.stderrWrite !== after.stderrWrite) out.push("process.stderr.write left replaced");
  for (const kind of HANDLES) {
    const grew = (after.handles[kind] ?? 0) - (before.handles[kind] ?? 0);
    if (grew > 0) out.push(`${grew} ${kind} handle(s) left open (a server or child process)`);
  }
  return out;
}

/**
 * What is still left behind once closing handles had `ms` to go: a server closed by the file's
 * last test stays listed until the event loop turns. A deadline, not a delay: it returns as
 * soon as nothing differs.
 */
export async function settledLeftBehind(before: ProcessState, ms = 5_000): Promise<string[]> {
  const deadline = Date.now() + ms;
  let left = leftBehind(before, processState());
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 10));
    left = leftBehind(before, processState());
  }
  return left;
}
