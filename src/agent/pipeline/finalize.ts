/**
 * Step 4, finalize: PreToolUse context after the output, then PostToolUse (a result) or
 * PostToolUseFailure (an error), whose context, rewritten output and `continue: false` shape
 * what the model sees.
 */
import type { HookDecision } from "../../hooks/index.js";
import type { ToolResult } from "../../tools/index.js";
import type { AgentEvent } from "../events.js";
import { fireHook, hookContextBlock } from "../hook-adapter/fire.js";
import { contextForModel } from "../hook-adapter/text.js";
import type { PipelineContext } from "./types.js";

/** The model's text for the result, and the stop reason a hook or the tool gave. */
export interface Finalized {
  content: string;
  stopReason: string | null;
}

/** Fires the after-hooks of one run. */
export async function* finalizeRun(
  ctx: PipelineContext,
  call: { id: string; name: string; input: Record<string, unknown>; pre: HookDecision },
  result: ToolResult,
  durationMs: number,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, Finalized> {
  const { id, name, input } = call;
  let content = result.content;
  let stopReason: string | null = result.stopTurn ?? null;
  // PreToolUse context reaches the model with the result, as in Claude Code (text after it).
  const preContext = contextForModel(call.pre, { tool: name });
  if (preContext?.trim()) content = `${content}\n\n${hookContextBlock("PreToolUse", preContext)}`;
  const ranFields = {
    tool_name: name,
    tool_input: input,
    tool_use_id: id,
    tool_response: { content: result.content, ...(result.details ?? {}) },
    duration_ms: durationMs,
  };
  if (!result.isError) {
    const post = yield* fireHook(ctx.hooks, ctx.info, "PostToolUse", ranFields, signal);
    if (post.updatedToolOutput !== null) content = post.updatedToolOutput;
    content = withContext(
      content,
      "PostToolUse",
      contextForModel(post, { tool: name }),
      post.reason,
    );
    if (!post.continue) stopReason = post.stopReason ?? "a PostToolUse hook stopped the agent";
    return { content, stopReason };
  }
  // A command that ran and exited non-zero: some agents' hooks see that as PostToolUse.
  const exitCode = result.details?.exitCode;
  const ran = typeof exitCode === "number" && exitCode !== 0 && !signal.aborted;
  const failure = yield* fireHook(
    ctx.hooks,
    ctx.info,
    "PostToolUseFailure",
    {
      tool_name: name,
      tool_input: input,
      tool_use_id: id,
      error: result.content,
      is_interrupt: signal.aborted,
      duration_ms: durationMs,
    },
    signal,
    ran ? ranFields : undefined,
  );
  content = withContext(
    content,
    "PostToolUseFailure",
    contextForModel(failure, { tool: name }),
    null,
  );
  if (!failure.continue) {
    stopReason = failure.stopReason ?? "a PostToolUseFailure hook stopped the agent";
  }
  return { content, stopReason };
}

/** Appends hook context (and a block reason not already in it) after the tool output. */
function withContext(
  content: string,
  event: "PostToolUse" | "PostToolUseFailure",
  context: string | null,
  reason: string | null,
): string {
  const parts: string[] = [];
  if (context?.trim()) parts.push(context.trim());
  if (reason?.trim() && !parts.some((p) => p.includes(reason.trim()))) parts.push(reason.trim());
  if (parts.length === 0) return content;
  return `${content}\n\n${hookContextBlock(event, parts.join("\n"))}`;
}
