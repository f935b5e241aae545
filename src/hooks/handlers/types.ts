/**
 * The seam between the engine and the ways a hook can run. Each handler type (command, http,
 * prompt, agent) is one module exporting a `Handler`; the engine picks by `hook.handler.type`.
 *
 * A handler only runs the hook and reports what happened. Turning that into an outcome is pure
 * and lives in decide.ts (command output, via the dialect's exit-code rules) or, for handlers
 * whose answer is already structured (http body, prompt/agent `{ok, reason}`), in the handler's
 * `HandlerResult` itself.
 */
import type { AnyEventPayload } from "../events.js";
import type { AgentRunner, HookDefinition, McpToolRunner, PromptRunner } from "../types.js";

/** Everything a handler needs for one run. */
export interface HandlerRunRequest {
  hook: HookDefinition;
  /** The Keel-native payload. */
  payload: AnyEventPayload;
  /** The payload as this hook's dialect shapes it: stdin text (one JSON line) and extra env. */
  stdin: string;
  env: Record<string, string>;
  /** Absolute project directory. */
  projectDir: string;
  timeoutMs: number;
  /** Aborted when the firing is cancelled (outcome `cancelled`). */
  signal: AbortSignal;
  /** Output cap per stream, bytes. */
  maxOutputBytes: number;
  promptRunner?: PromptRunner;
  agentRunner?: AgentRunner;
  /** The shell a command hook's `command` runs in (undefined: /bin/sh). */
  shell?: string;
  mcpToolRunner?: McpToolRunner;
  /** Whether a user-level setting allows http hooks to reach private networks. */
  allowPrivateNetworks: boolean;
}

/** What a run produced before interpretation. */
export interface RawRunResult {
  kind: "raw";
  /** Process exit code (http: 0 for a 2xx with a usable body); null when killed or not started. */
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  truncated: boolean;
  timedOut: boolean;
  cancelled: boolean;
  /** Set when the hook could not start at all (missing executable, refused URL, ...). */
  startError: string | null;
  durationMs: number;
}

/** A run whose handler already knows the outcome (prompt/agent answers, http failures). */
export interface DecidedRunResult {
  kind: "decided";
  outcome: "pass" | "block" | "warn" | "error" | "timeout" | "cancelled";
  message: string | null;
  /** Raw text for the run record (e.g. the model's answer, the response body). */
  stdout: string;
  stderr: string;
  exitCode: number | null;
  truncated: boolean;
  durationMs: number;
}

export type HandlerResult = RawRunResult | DecidedRunResult;

/** One way of running a hook. Must not throw: failures are results. */
export type Handler = (req: HandlerRunRequest) => Promise<HandlerResult>;
