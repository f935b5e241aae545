/**
 * What the execution pipeline (index.ts) needs from the agent and what it gives back. Every run
 * on the user's behalf — a model tool call, a sub-agent's, a custom command's !`cmd` — is one
 * PreparedCall through one PipelineContext.
 */
import type { HookDecision, HookEngine } from "../../hooks/index.js";
import type { AnyTool, ToolResult } from "../../tools/index.js";
import type { AgentEvent, ToolCallStatus } from "../events.js";
import type { HookSessionInfo } from "../hook-adapter/fire.js";
import type { PermissionRule } from "../permissions/rules.js";
import type { AskPermission } from "../types.js";
import type { SessionCwd } from "./shell-cwd.js";

/** What the pipeline needs from the agent. */
export interface DispatchContext {
  tools: readonly AnyTool[];
  hooks: HookEngine;
  info: HookSessionInfo;
  askPermission: AskPermission | undefined;
  autoApprove: boolean;
  /** "Allow always" answers of this session. */
  allowed: Set<string>;
  clock: () => number;
  /** Environment added to processes tools start (set after SessionStart from CLAUDE_ENV_FILE). */
  toolEnv?: Readonly<Record<string, string>>;
  /** Calls pre-approved for the current turn only (a user command's allowed-tools). */
  turnAllowed?: ((toolName: string, primary: string | undefined) => boolean) | undefined;
  /** Tools that run as event streams (the `task` sub-agent), by name. */
  streaming?: ReadonlyMap<string, StreamingRun>;
  /** Permission rules from settings (permissions/rules.ts): deny > ask > allow > the mode. */
  rules?: { rules: readonly PermissionRule[]; homeDir: string };
  /**
   * The user chose to run without the project's untrusted hooks (`keel run
   * --without-project-hooks`): they no longer withdraw auto-approval (untrusted-gate.ts).
   */
  withoutProjectHooks?: boolean;
  /** Called just before an approved call runs: keeps the files it may change (checkpoints for
   *  rewind, src/session/checkpoints.ts). Must not throw. */
  checkpoint?: (tool: AnyTool, input: Record<string, unknown>, callId: string) => void;
  /** The session's shell directory (shell-cwd.ts); absent: every call starts at the project. */
  shellCwd?: SessionCwd;
  /** Called after CwdChanged hooks ran (re-reads CLAUDE_ENV_FILE, watches their watchPaths).
   *  Must not throw. */
  afterCwdChanged?: (decision: HookDecision) => Promise<void>;
}

/** The same context under the name of what it serves. */
export type PipelineContext = DispatchContext;

/** A tool run that reports progress as agent events before its result. Must not throw. */
export type StreamingRun = (
  input: Record<string, unknown>,
  call: { id: string; signal: AbortSignal },
) => AsyncGenerator<AgentEvent, ToolResult>;

/** How a call ended: the text the model sees, and whether a hook ended the turn. */
export interface DispatchOutcome {
  status: ToolCallStatus;
  /** The tool result: the tool's output (or why it did not run), never hook context. */
  content: string;
  /**
   * Hook context for the model (`<hook-context>` blocks), or null: sent in a message of its own
   * after the batch's tool results (turn.ts), not inside the tool result.
   */
  context: string | null;
  input: Record<string, unknown>;
  /** Set when a hook said `continue: false`: the turn ends after this call. */
  stopReason: string | null;
  /** An image the tool read (read_file on a PNG/JPEG/GIF/WebP): its `data:` URL. */
  image?: string;
}

/** A call after repair: what to run, or the error the model gets instead. */
export interface PreparedCall {
  id: string;
  name: string;
  /** Parsed (and re-nested) arguments. */
  input: Record<string, unknown>;
  /** Set when the call must not run (repair could not fix it, storm breaker). */
  error?: string;
}

/** The permission step's answer. */
export type Permit =
  | { ok: true; sandboxed?: boolean }
  | {
      ok: false;
      reason: string;
      /** Refused without asking anyone. */
      unasked?: true;
      /** A person said no at the prompt: the turn stops and waits for them (Claude Code's "No,
       *  and tell Claude what to do differently"), instead of the model trying something else. */
      byUser?: true;
    };

/** One call to decide. */
export interface DecideRequest {
  tool: AnyTool;
  input: Record<string, unknown>;
  callId: string;
  /** What PreToolUse said for exactly this input: allow / ask / pass. */
  hookSays: string;
  /** What the model gets when a hook asked and nobody can answer (Claude's wording), or null. */
  hookAskText: string | null;
  signal: AbortSignal;
  /** The shell directory the call started in (prepare.ts). */
  cwd: string;
}
