/**
 * Writing sessions: an append-only JSONL file per session, every line written to the kernel as it
 * is appended (a killed process loses at most the line in flight; `fsync: true` also survives a
 * power cut). Messages are stored as the exact bytes the agent rendered.
 */
import { randomUUID } from "node:crypto";
import { closeSync, fsyncSync, mkdirSync, openSync } from "node:fs";
import { join, resolve } from "node:path";
import { appendHookAuditSoon, type HookRunInput } from "./hook-audit.js";
import { flushLines, openForAppend, PRIVATE_DIR_MODE, writeAll } from "./jsonl.js";
import { lockSessionFile, type SessionLock } from "./lock.js";
import { hooksPathFor, projectSessionsDir, usageLogPath } from "./paths.js";
import {
  type MessageMeta,
  messageLine,
  type SessionEventInput,
  type SessionMeta,
  type UsageInput,
  type UsageRecord,
} from "./records.js";
import { appendUsage, stampUsage } from "./usage.js";
import { UsageLogError } from "./usage-log-error.js";

/** An open session being written. Methods throw on I/O errors and on invalid rendered JSON. */
export interface SessionHandle {
  readonly id: string;
  /** The transcript file (hooks get it as `transcript_path`). */
  readonly path: string;
  /** The session's hook audit file. */
  readonly hooksPath: string;
  readonly meta: SessionMeta;
  /** Appends one message as its exact rendered JSON (one line, no raw newlines). */
  appendMessage(rendered: string, meta: MessageMeta): void;
  /** Appends an event line (`{type:"event", kind, ts, …}`). */
  appendEvent(event: SessionEventInput): void;
  /** Records a request's usage in the session file and in `$KEEL_HOME/usage.jsonl`. */
  appendUsage(usage: Omit<UsageInput, "sessionId" | "projectDir">): UsageRecord;
  /** Records a hook run in the session's audit file and in `$KEEL_HOME/hooks-audit.jsonl`, at
   *  the next turn of the event loop (appendLineSoon), at close, or when Keel exits; a failure
   *  to write goes to `onError`. */
  appendHookRun(run: HookRunInput, onError?: (err: unknown) => void): void;
  close(): void;
}

/** Options for writing a session. */
export interface SessionWriteOptions {
  keelHome: string;
  /** fsync after every message and event (default false: the kernel has it, a crash keeps it). */
  fsync?: boolean;
}

/** Starts a new session for a project. */
export function createSession(
  opts: SessionWriteOptions & { projectDir: string; model: string; id?: string },
): SessionHandle {
  const projectDir = resolve(opts.projectDir);
  const dir = projectSessionsDir(opts.keelHome, projectDir);
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const id = opts.id ?? randomUUID();
  const path = join(dir, `${id}.jsonl`);
  const meta: SessionMeta = {
    type: "session",
    id,
    projectDir,
    createdAt: new Date().toISOString(),
    model: opts.model,
    v: 1,
  };
  // Locked before the file exists, so a `-c` elsewhere can never pick it up unlocked.
  const lock = lockSessionFile(path, id);
  let fd: number;
  try {
    // "wx": never append a second meta line to someone else's session.
    fd = openSync(path, "wx", 0o600);
    writeAll(fd, `${JSON.stringify(meta)}\n`);
    if (opts.fsync) fsyncSync(fd);
  } catch (err) {
    lock.release();
    throw err;
  }
  return makeHandle({ fd, path, meta, keelHome: opts.keelHome, fsync: opts.fsync ?? false, lock });
}

/**
 * Reopens an existing session file for appending (resume). Throws SessionLockedError when
 * another live process writes it; read the file again after this returns, not before.
 */
export function reopenSession(
  opts: SessionWriteOptions & { path: string; meta: SessionMeta },
): SessionHandle {
  const lock = lockSessionFile(opts.path, opts.meta.id);
  let fd: number;
  try {
    fd = openForAppend(opts.path);
  } catch (err) {
    lock.release();
    throw err;
  }
  return makeHandle({
    fd,
    path: opts.path,
    meta: opts.meta,
    keelHome: opts.keelHome,
    fsync: opts.fsync ?? false,
    lock,
  });
}

function makeHandle(s: {
  fd: number;
  path: string;
  meta: SessionMeta;
  keelHome: string;
  fsync: boolean;
  lock: SessionLock;
}): SessionHandle {
  let fd: number | null = s.fd;
  const hooksPath = hooksPathFor(s.path);
  const write = (line: string) => {
    if (fd === null) throw new Error(`session ${s.meta.id} is closed`);
    writeAll(fd, `${line}\n`);
    if (s.fsync) fsyncSync(fd);
  };
  return {
    id: s.meta.id,
    path: s.path,
    hooksPath,
    meta: s.meta,
    appendMessage(rendered, meta) {
      checkRendered(rendered);
      if (!Number.isInteger(meta.turn) || meta.turn < 0) {
        throw new Error(`appendMessage: turn must be a non-negative integer, got ${meta.turn}`);
      }
      write(messageLine(rendered, meta));
    },
    appendEvent(event) {
      const { kind, ...rest } = event;
      delete rest.type;
      write(JSON.stringify({ type: "event", kind, ts: new Date().toISOString(), ...rest }));
    },
    appendUsage(usage) {
      const record = stampUsage({
        ...usage,
        sessionId: s.meta.id,
        projectDir: s.meta.projectDir,
      });
      write(JSON.stringify({ type: "usage", ...record }));
      try {
        appendUsage({ keelHome: s.keelHome, record });
      } catch (err) {
        throw new UsageLogError(usageLogPath(s.keelHome), err);
      }
      return record;
    },
    appendHookRun(run, onError) {
      appendHookAuditSoon(
        {
          keelHome: s.keelHome,
          run,
          sessionId: s.meta.id,
          projectDir: s.meta.projectDir,
          sessionAuditPath: hooksPath,
        },
        onError,
      );
    },
    close() {
      flushLines();
      if (fd === null) return;
      closeSync(fd);
      fd = null;
      s.lock.release();
    },
  };
}

// A raw newline would split the record; invalid JSON could not be replayed.
function checkRendered(rendered: string): void {
  if (/[\n\r]/.test(rendered)) {
    throw new Error("appendMessage: rendered message contains a raw newline; render it compactly");
  }
  try {
    JSON.parse(rendered);
  } catch {
    throw new Error("appendMessage: rendered message is not valid JSON");
  }
}
