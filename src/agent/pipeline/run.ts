/**
 * Step 3, run: the one place in src/ that calls a tool's `run` (test/security/execution-sites
 * .test.ts checks). Never throws: a tool that throws is an error result.
 */
import { effortVariables } from "../../base/index.js";
import type { AnyTool, ToolResult } from "../../tools/index.js";
import type { AgentEvent } from "../events.js";
import { messageOf } from "../hook-adapter/fire.js";
import { withProgress } from "../progress.js";
import { readBarredBy } from "./read-barred.js";
import type { PipelineContext } from "./types.js";

/** Runs the approved call; `sandboxed` when Keel, not a person, approved a shell command. */
export async function* runApproved(
  ctx: PipelineContext,
  call: {
    id: string;
    tool: AnyTool;
    input: Record<string, unknown>;
    sandboxed: boolean;
    /** The shell directory the call started in (prepare.ts). */
    cwd: string;
  },
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, ToolResult> {
  const { tool, input } = call;
  if (signal.aborted)
    return { content: "Interrupted by the user before the tool ran.", isError: true };
  const readBarred = readBarredBy(ctx, tool.kind);
  const env = toolEnvOf(ctx);
  ctx.checkpoint?.(tool, input, call.id);
  let result: ToolResult;
  try {
    const streaming = ctx.streaming?.get(tool.name);
    result = streaming
      ? yield* streaming(input, { id: call.id, signal })
      : yield* withProgress<ToolResult, AgentEvent>((emit) =>
          tool.run(input, {
            signal,
            sandboxed: call.sandboxed,
            cwd: call.cwd,
            ...(readBarred ? { readBarred } : {}),
            ...(env ? { env } : {}),
            onOutput: (text) => emit({ type: "tool_output", id: call.id, text }),
            onEvent: (event) => emit({ ...event, id: call.id }),
          }),
        );
  } catch (err) {
    result = { content: `${tool.name} failed: ${messageOf(err)}`, isError: true };
  }
  // Tools that noticed the interrupt say so themselves (shell: "[interrupted by the user…]").
  if (signal.aborted && result.isError && !/interrupted/i.test(result.content)) {
    result = { ...result, content: `${result.content}\n(Interrupted by the user.)` };
  }
  return result;
}

/**
 * Variables laid over what the call's processes start from: CLAUDE_ENV_FILE's exports and, as
 * Claude Code gives its Bash tool, `CLAUDE_EFFORT` while an effort level is set (read per call:
 * `/effort` changes it mid-session).
 */
function toolEnvOf(ctx: PipelineContext): Readonly<Record<string, string>> | undefined {
  const effort = effortVariables(ctx.info.effort?.());
  if (Object.keys(effort).length === 0) return ctx.toolEnv;
  return { ...ctx.toolEnv, ...effort };
}
