/**
 * Opening the session an agent persists to: a new one, the project's latest (`--continue`) or
 * one by id (`--resume`), adapted to the agent's SessionPort (never throws once open).
 */
import { resolve } from "node:path";
import {
  COMPACTION_EVENT,
  createSession,
  latestSession,
  liveState,
  loadSession,
  REWIND_EVENT,
  reopenSession,
  SessionError,
  type SessionHandle,
  SHELL_CWD_EVENT,
} from "../session/index.js";
import { appendCompactionRecord } from "./compaction-log.js";
import type { SessionPort, ShellCwdRecord } from "./types.js";

/** Options of `openAgentSession`. */
export interface OpenSessionOptions {
  keelHome: string;
  projectDir: string;
  /** Recorded in a new session's first line. */
  model: string;
  /** Resume this session id (or unique prefix). */
  resume?: string;
  /** Resume the project's most recently updated session (a new one when there is none). */
  continueLatest?: boolean;
  /** fsync every line (default false: a killed process still keeps every written line). */
  fsync?: boolean;
  /** Called when a write fails (disk full, ...). Must not throw. */
  onError?: (err: unknown) => void;
}

/** An open session port; `close()` releases the file. */
export interface OpenedSession extends SessionPort {
  /** Warnings from reading a resumed file (a torn last line after a crash, ...). */
  readonly warnings: readonly string[];
  close(): void;
}

/**
 * Opens (or creates) the session. Throws only for a bad `resume` id (SessionError, whose
 * message is fit to show the user).
 */
export function openAgentSession(opts: OpenSessionOptions): OpenedSession {
  let resumeId = opts.resume;
  // Newer session files that cannot be read: the user meant to continue one of those.
  const skipped: string[] = [];
  if (resumeId === undefined && opts.continueLatest) {
    resumeId = latestSession({
      keelHome: opts.keelHome,
      projectDir: opts.projectDir,
      onUnreadable: (u) => skipped.push(u.reason),
    })?.id;
    for (const [i, reason] of skipped.entries()) {
      skipped[i] =
        `${reason}; ${resumeId === undefined ? "starting a new session" : `continuing the older session ${resumeId.slice(0, 8)}`} instead`;
    }
  }
  const write = { keelHome: opts.keelHome, ...(opts.fsync ? { fsync: true } : {}) };
  if (resumeId !== undefined) {
    const found = loadSession({ keelHome: opts.keelHome, id: resumeId });
    // Tools and hooks run in the project directory: resuming another project's conversation
    // here would point its file paths and commands at the wrong tree.
    if (found.meta.projectDir !== resolve(opts.projectDir)) {
      throw new SessionError(
        `session ${found.meta.id.slice(0, 8)} belongs to ${found.meta.projectDir}; resume it from there (or with --cwd ${found.meta.projectDir})`,
      );
    }
    const handle = reopenSession({ ...write, path: found.path, meta: found.meta });
    // Read again under the lock: another writer may have appended since the first read.
    let locked: typeof found;
    try {
      locked = loadSession({ keelHome: opts.keelHome, id: found.meta.id });
    } catch (err) {
      handle.close();
      throw err;
    }
    const live = liveState(locked);
    return adapt(
      handle,
      {
        messages: live.entries.map((m) => m.bytes),
        turns: live.entries.map((m) => m.turn),
        shellCwds: shellCwdRecords(locked.events),
        promptTokens: locked.promptTokens,
        ...(live.compactedAtTurn !== null ? { compactedAtTurn: live.compactedAtTurn } : {}),
      },
      [...skipped, ...locked.warnings],
      opts.onError,
      opts.keelHome,
    );
  }
  const handle = createSession({ ...write, projectDir: opts.projectDir, model: opts.model });
  return adapt(handle, { messages: [], promptTokens: 0 }, skipped, opts.onError, opts.keelHome);
}

/** The shell directory changes and rewinds of a session file, in order (SessionCwd replays
 *  them). A record that is not well formed is skipped: the shell then starts nearer the project. */
function shellCwdRecords(
  events: readonly { kind: string; data: Record<string, unknown> }[],
): ShellCwdRecord[] {
  const out: ShellCwdRecord[] = [];
  for (const e of events) {
    const turn = e.kind === REWIND_EVENT ? e.data.toTurn : e.data.turn;
    if (typeof turn !== "number") continue;
    if (e.kind === REWIND_EVENT) out.push({ turn, rewind: true });
    else if (e.kind === SHELL_CWD_EVENT && typeof e.data.cwd === "string")
      out.push({ turn, cwd: e.data.cwd });
  }
  return out;
}

function adapt(
  handle: SessionHandle,
  stored: {
    messages: readonly string[];
    shellCwds?: readonly ShellCwdRecord[];
    turns?: readonly number[];
    promptTokens: number;
    compactedAtTurn?: number;
  },
  warnings: readonly string[],
  onError: ((err: unknown) => void) | undefined,
  keelHome: string,
): OpenedSession {
  const guard = (fn: () => void) => {
    try {
      fn();
    } catch (err) {
      onError?.(err);
    }
  };
  return {
    id: handle.id,
    transcriptPath: handle.path,
    messages: stored.messages,
    turns: stored.turns ?? [],
    ...(stored.shellCwds !== undefined && stored.shellCwds.length > 0
      ? { shellCwds: stored.shellCwds }
      : {}),
    promptTokens: stored.promptTokens,
    ...(stored.compactedAtTurn !== undefined ? { compactedAtTurn: stored.compactedAtTurn } : {}),
    warnings,
    appendMessage: (bytes, meta) => guard(() => handle.appendMessage(bytes, meta)),
    recordCompaction: (after, meta) =>
      guard(() => {
        handle.appendEvent({ kind: COMPACTION_EVENT, messages: after.length });
        for (const bytes of after) handle.appendMessage(bytes, meta);
      }),
    appendUsage: (entry) =>
      guard(() => {
        handle.appendUsage({
          ts: new Date(entry.at).toISOString(),
          model: entry.model,
          promptTokens: entry.usage.promptTokens,
          cacheHitTokens: entry.usage.cacheHitTokens,
          cacheMissTokens: entry.usage.cacheMissTokens,
          completionTokens: entry.usage.completionTokens,
          costUsd: entry.costUsd,
          costWithoutCacheUsd: entry.costWithoutCacheUsd,
          ...(entry.usage.simulated ? { simulated: true as const } : {}),
        });
      }),
    appendHookRun: (run) => guard(() => handle.appendHookRun(run, onError)),
    appendCompactionStats: (record) =>
      guard(() =>
        appendCompactionRecord(keelHome, {
          ts: new Date().toISOString(),
          sessionId: handle.id,
          ...record,
        }),
      ),
    recordEvent: (kind, fields) => guard(() => handle.appendEvent({ ...fields, kind })),
    close: () => guard(() => handle.close()),
  };
}
