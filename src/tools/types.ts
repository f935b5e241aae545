/**
 * The tool contract: every built-in tool is one file exporting a `createXTool(ctx)` factory that
 * returns a Tool. Imports nothing from the rest of `src/`.
 */
import type { z } from "zod";

/** What a tool needs from its surroundings. */
export interface ToolContext {
  /** Absolute project directory: relative paths resolve against it. */
  cwd: string;
  /** Base environment for processes the tool starts, built with base/child-env.ts (default:
   *  process.env through that builder, without Keel's secrets). */
  env?: NodeJS.ProcessEnv;
}

/** What a tool run produced. `content` is what the model sees; `details` is for the UI and hooks. */
export interface ToolResult {
  content: string;
  isError: boolean;
  details?: Record<string, unknown>;
  /** An image for the model (read_file on an image file): a `data:` URL, sent in a user message
   *  after the tool results, since a tool message carries text only (src/agent/turn.ts). */
  image?: string;
  /** Ends the user's turn after this call, for the reason given (the user said "no" to a
   *  call inside a sub-agent). */
  stopTurn?: string;
  /** The shell's working directory after the call (shell only): absolute, already checked to lie
   *  inside the project (links followed); the pipeline keeps it for the session's next call. */
  cwd?: string;
}

/**
 * How a tool relates to permissions. `session` tools change only Keel's own state for the
 * session (the todo list, a loaded skill's text): no project file, no program, so they never
 * ask, and they are not "read-only" tools (plan mode's and sub-agents' file readers).
 * "network": no local side effects, but it sends data out (web_fetch): it asks in every mode
 * but bypass, plan mode included (src/agent/permissions/modes.ts).
 */
export type ToolKind = "read" | "write" | "shell" | "session" | "network";

/** One item of the model's todo list (the todo_write tool). */
export interface TodoItem {
  content: string;
  status: "pending" | "in_progress" | "completed";
  /** The item in the present continuous ("Running the tests"), shown while in progress. */
  activeForm: string;
}

/** Something a tool reports to the front ends while it runs (the agent turns it into an event). */
export type ToolEvent = { type: "todos"; todos: TodoItem[] };

/** A built-in (or MCP) tool. */
export interface Tool<I extends Record<string, unknown> = Record<string, unknown>> {
  name: string;
  /** Shown to the model in the tool spec. */
  description: string;
  /** Validates the model's arguments (parse at the boundary, once). */
  schema: z.ZodType<I>;
  /** The JSON Schema sent to the model (derived from `schema`). */
  parameters: Record<string, unknown>;
  kind: ToolKind;
  /** A read-only tool that still changes state (kill_shell ends a job): reads after it are
   *  not repeats (the storm breaker, src/agent/repair/storm.ts). */
  changesState?: boolean;
  /** The argument `if` conditions and permission rules match: command for shell, path for file tools. */
  primaryArg(input: I): string | undefined;
  /** Runs the tool. Must not throw: failures are `isError` results worded for the model. */
  run(input: I, opts: ToolRunOptions): Promise<ToolResult>;
  /** Ends what the tool keeps running (background shell jobs) when the session ends. */
  dispose?(): Promise<void>;
}

/** What a tool run gets besides its input. */
export interface ToolRunOptions {
  signal: AbortSignal;
  /**
   * No person approved this call (Keel's allowlist or plan mode did), so a tool that runs
   * programs runs them in the OS sandbox, or not at all.
   */
  sandboxed?: boolean;
  /** Output as it is produced (shell), for the UI; the result still carries all of it. */
  onOutput?: (text: string) => void;
  /** State the front ends show (the todo checklist). */
  onEvent?: (event: ToolEvent) => void;
  /** Variables laid over the environment of processes this call starts (the `export` lines
   *  SessionStart hooks wrote to CLAUDE_ENV_FILE). */
  env?: Readonly<Record<string, string>>;
  /**
   * Files the settings' permission rules keep from being read (a `Read(./.env)` deny or ask
   * rule): a tool that reads many files (grep over a directory) skips them; a sandboxed shell
   * command finds them empty.
   */
  readBarred?: (abs: string) => boolean;
  /** The session's shell working directory for this call (absolute; default: the project).
   *  Only the shell uses it: the file tools resolve relative paths against the project. */
  cwd?: string;
}
