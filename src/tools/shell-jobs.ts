/**
 * Background shell jobs (`shell` with `run_in_background`): each job's combined output goes to
 * a file of its own (0600, in the session's folder, capped at JOB_OUTPUT_CAP_BYTES), read back
 * by `shell_output` from where the last read stopped, ended by `kill_shell` or at session end.
 * The process itself is started by the shell tool (src/tools/shell.ts, the one place a tool
 * starts a program): this file only keeps what was started.
 */
import { closeSync, mkdirSync, mkdtempSync, openSync, readSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Bytes of one job's output kept on disk; what comes after is counted, not kept. */
export const JOB_OUTPUT_CAP_BYTES = 4 * 1024 * 1024;
/** Bytes one `shell_output` call returns at most (the rest waits for the next call). */
export const JOB_READ_BYTES = 30_000;
/** Background jobs one session may have running at once. */
export const MAX_RUNNING_JOBS = 16;
const KILL_GRACE_MS = 500;

/** What a job keeps of the process the shell tool started (a ChildProcess; structural, so
 *  this file does not import child_process: test/security/execution-sites.test.ts). */
export interface JobProcess {
  readonly pid?: number | undefined;
  readonly stdout: NodeJS.EventEmitter | null;
  readonly stderr: NodeJS.EventEmitter | null;
  on(event: "error", listener: (err: Error) => void): unknown;
  on(
    event: "exit",
    listener: (code: number | null, signal: NodeJS.Signals | null) => void,
  ): unknown;
  unref(): void;
}

/** One job's state, as `shell_output` reports it. */
export type JobStatus =
  | { state: "running" }
  | { state: "exited"; exitCode: number | null; signal: NodeJS.Signals | null }
  | { state: "killed" };

interface Job {
  id: string;
  command: string;
  pid: number | undefined;
  file: string;
  fd: number | null;
  written: number;
  dropped: number;
  readOffset: number;
  status: JobStatus;
  sandboxed: boolean;
}

/** What the TUI or a report lists about a job. */
export interface JobSummary {
  id: string;
  command: string;
  status: JobStatus;
  outputBytes: number;
}

/** The session's background jobs. */
export class ShellJobs {
  private readonly jobs = new Map<string, Job>();
  private next = 1;
  private dir: string | undefined;
  private readonly onExit = () => this.killAllNow();

  /** `dir`: where output files go (the session's folder); a private temp folder if none. */
  constructor(
    private readonly wantedDir: string | undefined,
    private readonly killGroup: (pid: number, signal: NodeJS.Signals) => void,
  ) {}

  /** How many jobs are running. */
  running(): number {
    return [...this.jobs.values()].filter((j) => j.status.state === "running").length;
  }

  /** Registers a started process; its output is written to the job's file from now on. */
  add(child: JobProcess, command: string, sandboxed: boolean): string {
    const id = `bg${this.next++}`;
    const file = join(this.folder(), `${id}.out`);
    const job: Job = {
      id,
      command,
      pid: child.pid,
      file,
      fd: openSync(file, "w", 0o600),
      written: 0,
      dropped: 0,
      readOffset: 0,
      status: { state: "running" },
      sandboxed,
    };
    this.jobs.set(id, job);
    if (this.running() === 1) process.on("exit", this.onExit);
    const write = (chunk: Buffer) => {
      const room = JOB_OUTPUT_CAP_BYTES - job.written;
      const kept = chunk.length > room ? chunk.subarray(0, Math.max(room, 0)) : chunk;
      if (kept.length > 0 && job.fd !== null) {
        writeSync(job.fd, kept);
        job.written += kept.length;
      }
      job.dropped += chunk.length - kept.length;
    };
    child.stdout?.on("data", write);
    child.stderr?.on("data", write);
    child.on("error", () => this.settle(job, { state: "exited", exitCode: null, signal: null }));
    child.on("exit", (code, signal) => {
      if (job.status.state === "running") {
        this.settle(job, { state: "exited", exitCode: code, signal });
      }
    });
    // Grandchildren may hold the pipes after the shell exits: never let them keep Keel alive.
    for (const pipe of [child.stdout, child.stderr]) {
      (pipe as unknown as { unref?: () => void } | null)?.unref?.();
    }
    child.unref();
    return id;
  }

  /** New output since the last read, and the status; undefined for an unknown id. */
  read(id: string): { job: JobSummary; text: string; more: boolean; dropped: number } | undefined {
    const job = this.jobs.get(id);
    if (!job) return undefined;
    const length = Math.min(JOB_READ_BYTES, job.written - job.readOffset);
    const buf = Buffer.alloc(Math.max(length, 0));
    if (length > 0) {
      const fd = openSync(job.file, "r");
      try {
        readSync(fd, buf, 0, length, job.readOffset);
      } finally {
        closeSync(fd);
      }
    }
    job.readOffset += length;
    // Cut back to the last whole UTF-8 character; the rest comes with the next read.
    const text = wholeUtf8(buf);
    job.readOffset -= buf.length - Buffer.byteLength(text);
    return {
      job: summary(job),
      text,
      more: job.readOffset < job.written,
      dropped: job.dropped,
    };
  }

  /** Ends a job's process group (SIGTERM, then SIGKILL); false for an unknown id. */
  kill(id: string): JobSummary | undefined {
    const job = this.jobs.get(id);
    if (!job) return undefined;
    if (job.status.state === "running" && job.pid !== undefined) {
      const pid = job.pid;
      this.killGroup(pid, "SIGTERM");
      setTimeout(() => this.killGroup(pid, "SIGKILL"), KILL_GRACE_MS).unref();
      this.settle(job, { state: "killed" });
    }
    return summary(job);
  }

  /** Every job, oldest first. */
  list(): JobSummary[] {
    return [...this.jobs.values()].map(summary);
  }

  /** Session end: every running job's group gets SIGTERM, and SIGKILL after a short grace. */
  async killAll(): Promise<void> {
    const pids = [...this.jobs.values()]
      .filter((j) => j.status.state === "running" && j.pid !== undefined)
      .map((j) => j.pid as number);
    for (const job of this.jobs.values()) this.kill(job.id);
    if (pids.length === 0) return;
    await new Promise((r) => setTimeout(r, KILL_GRACE_MS));
    for (const pid of pids) this.killGroup(pid, "SIGKILL");
  }

  /** At process exit (a crash, a signal Keel did not handle): SIGKILL, synchronously. */
  private killAllNow(): void {
    for (const job of this.jobs.values()) {
      if (job.status.state === "running" && job.pid !== undefined) {
        this.killGroup(job.pid, "SIGKILL");
      }
    }
  }

  private settle(job: Job, status: JobStatus): void {
    if (job.status.state !== "running") return;
    job.status = status;
    // The file stays for reading; only the writing end closes (late pipe data is dropped).
    if (job.fd !== null) {
      closeSync(job.fd);
      job.fd = null;
    }
    if (this.running() === 0) process.removeListener("exit", this.onExit);
  }

  private folder(): string {
    if (this.dir) return this.dir;
    if (this.wantedDir) {
      mkdirSync(this.wantedDir, { recursive: true, mode: 0o700 });
      this.dir = this.wantedDir;
    } else {
      this.dir = mkdtempSync(join(tmpdir(), "keel-jobs-"));
    }
    return this.dir;
  }
}

function summary(job: Job): JobSummary {
  return { id: job.id, command: job.command, status: job.status, outputBytes: job.written };
}

/** The longest prefix of `buf` that ends on a whole UTF-8 character, decoded. */
function wholeUtf8(buf: Buffer): string {
  let end = buf.length;
  // Step back over at most 3 continuation bytes to the lead byte of a cut character.
  for (let i = 1; i <= 3 && end - i >= 0; i++) {
    const b = buf[end - i] ?? 0;
    if ((b & 0xc0) === 0x80) continue;
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    if (need > i) end -= i;
    break;
  }
  return buf.subarray(0, end).toString("utf8");
}

/** A job's status in words, for the model. */
export function describeStatus(status: JobStatus): string {
  if (status.state === "running") return "running";
  if (status.state === "killed") return "killed";
  if (status.signal) return `ended by ${status.signal}`;
  return `exited with code ${status.exitCode ?? "unknown"}`;
}
