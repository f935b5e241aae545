/**
 * The agent handler (docs/hooks.md "HTTP, prompt and agent hooks"): a read-only sub-agent verifies something ("do the tests
 * pass?") and answers `{ok, reason}`. `ok: false` is a decided "block", read per event as
 * prompt.ts describes (deny on a tool call; on Stop the agent keeps going with the reason); `ok: true` passes; no runner, a failing runner or a malformed answer
 * is a warning, never a block.
 *
 * The sub-agent itself lives in the agent layer. What an `AgentRunner` must guarantee:
 * - Tools: only read_file, glob, grep and list_dir, confined to `cwd`. Any other tool call
 *   (shell, write_file, edit_file, MCP, ...) is refused with an error tool result and never runs.
 * - It answers through one dedicated tool taking `{ok: boolean, reason: string}`; the first call
 *   ends the sub-agent and the runner resolves with those values.
 * - At most `maxTurns` model turns (this handler caps it at 50). Running out of turns, a model
 *   error, or ending without calling the answer tool rejects with an Error saying which; the
 *   runner never invents a verdict.
 * - It honours `signal`: on abort it stops the model stream and any running tool promptly. (This
 *   handler abandons the run at its deadline either way.)
 * - It fires SubagentStart / SubagentStop for itself; its own tool calls never fire the parent's
 *   PreToolUse / PostToolUse, and hooks fired from inside a hook sub-agent never start another
 *   agent hook (no recursion).
 * - Nothing it exchanges enters the parent's conversation log or cached prefix; its usage is
 *   accounted like any other model call.
 */
import { substituteArguments } from "../template.js";
import { hookVerdictSchema, payloadJsonOf, unsettledResult, verdictResult } from "./prompt.js";
import { decided, settle, startDeadline } from "./run-support.js";
import type { Handler } from "./types.js";

/** Turns a sub-agent gets when the hook does not say. */
export const DEFAULT_AGENT_MAX_TURNS = 10;

/** The most turns any agent hook may ask for. */
export const MAX_AGENT_MAX_TURNS = 50;

/** The configured `maxTurns`, defaulted and clamped to 1..50. */
export function agentMaxTurns(configured: number | undefined): number {
  if (configured === undefined || !Number.isFinite(configured)) return DEFAULT_AGENT_MAX_TURNS;
  return Math.min(MAX_AGENT_MAX_TURNS, Math.max(1, Math.floor(configured)));
}

/** The agent handler: runs `req.agentRunner`; without one it warns. */
export const agentHandler: Handler = async (req) => {
  const handler = req.hook.handler;
  const deadline = startDeadline({ timeoutMs: req.timeoutMs, signal: req.signal });
  try {
    if (handler.type !== "agent") {
      return decided("error", {
        message: `agent handler given a ${handler.type} hook`,
        durationMs: 0,
      });
    }
    if (!req.agentRunner) {
      return decided("warn", {
        message:
          "agent hooks need a model: no agent runner is configured (no API key or endpoint?)",
        durationMs: deadline.elapsedMs(),
      });
    }
    const runner = req.agentRunner;
    const early = deadline.cause();
    if (early) return unsettledResult("agent", early, { timeoutMs: req.timeoutMs, deadline });
    const request = {
      prompt: substituteArguments(handler.prompt, payloadJsonOf(req)),
      maxTurns: agentMaxTurns(handler.maxTurns),
      cwd: req.projectDir,
      signal: deadline.signal,
      ...(handler.model ? { model: handler.model } : {}),
    };
    const settled = await settle(
      deadline,
      Promise.resolve().then(() => runner(request)),
    );
    if (settled.kind !== "done") {
      const error = settled.kind === "failed" ? settled.error : undefined;
      return unsettledResult("agent", settled.kind, { timeoutMs: req.timeoutMs, error, deadline });
    }
    const parsed = hookVerdictSchema().safeParse(settled.value);
    const stdout = JSON.stringify(settled.value) ?? "";
    if (!parsed.success) {
      return decided("warn", {
        message: 'agent hook gave a malformed answer; expected {"ok": boolean, "reason": string}',
        stdout,
        durationMs: deadline.elapsedMs(),
      });
    }
    return verdictResult(parsed.data, {
      kind: "agent",
      stdout,
      truncated: false,
      durationMs: deadline.elapsedMs(),
    });
  } finally {
    deadline.dispose();
  }
};
