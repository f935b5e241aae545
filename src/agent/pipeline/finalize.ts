/**
 * Step 4, finalize: PostToolUse (a result) or PostToolUseFailure (an error), whose rewritten
 * output and `continue: false` shape the tool result. Hook context — PreToolUse's, the after-
 * hook's, a block reason — is NOT put inside the tool result: it goes back apart (`context`) and
 * the turn appends it as a message of its own after the batch's tool results (turn.ts), the
 * channel Claude Code 2.1.332 uses (docs/hooks.md "Where results go").
 */
import type { HookDecision } from "../../hooks/index.js";
import type { ToolResult } from "../../tools/index.js";
import type { AgentEvent } from "../events.js";
import { fireHook, hookContextBlock, infoAt } from "../hook-adapter/fire.js";
import { contextForModel } from "../hook-adapter/text.js";
import type { PipelineContext } from "./types.js";

/** The model's text for the result, the hooks' context for after it, and the stop reason a
 *  hook or the tool gave. */
export interface Finalized {
  content: string;
  /** `<hook-context>` blocks (PreToolUse, then PostToolUse / PostToolUseFailure), or null. */
  context: string | null;
  stopReason: string | null;
}

/** Fires the after-hooks of one run. */
export async function* finalizeRun(
  ctx: PipelineContext,
  call: {
    id: string;
    name: string;
    input: Record<string, unknown>;
    pre: HookDecision;
    /** The shell directory the call started in: its after-hooks' `cwd`, as its PreToolUse's. */
    cwd: string;
  },
  result: ToolResult,
  durationMs: number,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, Finalized> {
  const { id, name, input } = call;
  const info = infoAt(ctx.info, call.cwd);
  let content = result.content;
  let stopReason: string | null = result.stopTurn ?? null;
  // PreToolUse context reaches the model after the result, before the after-hooks' (Claude Code).
  const blocks: string[] = [];
  addBlock(blocks, "PreToolUse", contextForModel(call.pre, { tool: name }), null);
  const ranFields = {
    tool_name: name,
    tool_input: input,
    tool_use_id: id,
    tool_response: { content: result.content, ...(result.details ?? {}) },
    duration_ms: durationMs,
  };
  if (!result.isError) {
    const post = yield* fireHook(ctx.hooks, info, "PostToolUse", ranFields, signal);
    if (post.updatedToolOutput !== null) content = post.updatedToolOutput;
    addBlock(blocks, "PostToolUse", contextForModel(post, { tool: name }), post.reason);
    if (!post.continue) stopReason = post.stopReason ?? "a PostToolUse hook stopped the agent";
    return { content, context: joined(blocks), stopReason };
  }
  // A command that ran and exited non-zero: some agents' hooks see that as PostToolUse.
  const exitCode = result.details?.exitCode;
  const ran = typeof exitCode === "number" && exitCode !== 0 && !signal.aborted;
  const failure = yield* fireHook(
    ctx.hooks,
    info,
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
  addBlock(blocks, "PostToolUseFailure", contextForModel(failure, { tool: name }), null);
  if (!failure.continue) {
    stopReason = failure.stopReason ?? "a PostToolUseFailure hook stopped the agent";
  }
  return { content, context: joined(blocks), stopReason };
}

/** Adds one event's hook context (and a block reason not already in it) as a marked block. */
function addBlock(
  blocks: string[],
  event: "PreToolUse" | "PostToolUse" | "PostToolUseFailure",
  context: string | null,
  reason: string | null,
): void {
  const parts: string[] = [];
  if (context?.trim()) parts.push(context.trim());
  if (reason?.trim() && !parts.some((p) => p.includes(reason.trim()))) parts.push(reason.trim());
  if (parts.length > 0) blocks.push(hookContextBlock(event, parts.join("\n")));
}

function joined(blocks: readonly string[]): string | null {
  return blocks.length > 0 ? blocks.join("\n\n") : null;
}
