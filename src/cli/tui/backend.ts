/**
 * What the TUI needs from the rest of Keel, as a narrow port: the agent of the current session
 * (a subset of `Agent`, so tests can drive the UI with scripted event streams) and the few
 * session-level actions that replace it (/clear, /resume, /model).
 */
import type { Agent, PermissionMode } from "../../agent/index.js";
import type { HookEngine } from "../../hooks/types.js";
import type { HookStats } from "../../session/index.js";
import type { JobSummary } from "../../tools/index.js";

/** The hooks engine operations the TUI uses. */
export type TuiHooks = Pick<
  HookEngine,
  "listing" | "reload" | "trust" | "untrust" | "stats" | "changedOnDisk"
>;

/** The agent operations the TUI uses. */
export type TuiAgent = Pick<
  Agent,
  | "sessionId"
  | "start"
  | "runTurn"
  | "compact"
  | "end"
  | "getPermissionMode"
  | "setPermissionMode"
  | "stats"
  | "transcript"
  | "mcp"
> & { readonly hooks: TuiHooks } & Partial<
    Pick<
      Agent,
      | "memory"
      | "commands"
      | "getReasoning"
      | "setReasoning"
      | "transcriptPath"
      | "getEffort"
      | "setEffort"
      | "rewind"
      | "userTurns"
    >
  >;

/** A stored session as /sessions lists it. */
export interface TuiSessionSummary {
  id: string;
  updatedAt: string;
  messages: number;
  firstPrompt: string;
  /** The title a hook gave the session (sessionTitle); shown instead of the first prompt. */
  title?: string;
  model: string;
}

/** The result of an action that may fail for a reason the user should read. */
export type ActionResult = { ok: true } | { ok: false; error: string };

/** The session-level port the TUI drives. */
export interface TuiBackend {
  readonly projectDir: string;
  /** The agent of the current session (changes after /clear, /resume, /model). */
  agent(): TuiAgent;
  model(): string;
  /** Models offered by /model completion (the pricing table). */
  models(): readonly string[];
  /** This project's sessions, newest first. */
  sessions(): TuiSessionSummary[];
  /**
   * Replaces the current agent; on failure the old one stays. The caller ends the old agent
   * afterwards (SessionEnd), then starts the new one (SessionStart). `resume` reopens a stored
   * session (by id or unique prefix); `model` keeps the session and switches the model (a
   * resume of the same session); neither: a fresh session.
   */
  replace(opts: { resume?: string; model?: string }): Promise<ActionResult>;
  /**
   * Per-hook counts of the current session from the hook audit log, as `keel hooks stats
   * --session` counts them: the agent's own engine counts only its runs, and /model hands the
   * session to a new agent. Absent: the engine's counts are used.
   */
  hookStats?(): HookStats[];
  /** The current session's background shell jobs, oldest first (absent: none kept). */
  jobs?(): readonly JobSummary[];
  /** Ends one job's process group; undefined for an unknown id. */
  killJob?(id: string): JobSummary | undefined;
}

/** Accepts the short spellings people type for the permission modes. */
export function parseMode(text: string): PermissionMode | null {
  const t = text.trim().toLowerCase();
  if (t === "default" || t === "ask") return "default";
  if (t === "acceptedits" || t === "accept-edits" || t === "edits") return "acceptEdits";
  if (t === "plan") return "plan";
  if (t === "bypass" || t === "bypasspermissions" || t === "yolo") return "bypassPermissions";
  return null;
}
