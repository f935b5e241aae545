/**
 * Step 3, run: the one place in src/ that calls a tool's `run` (test/security/execution-sites
 * .test.ts checks). Never throws: a tool that throws is an error result.
 */
import type { AnyTool } from "../../tools/registry.js";
import type { ToolResult } from "../../tools/types.js";
import type { AgentEvent } from "../events.js";
import { messageOf } from "../hook-fire.js";
import { withProgress } from "../progress.js";
import type { PipelineContext } from "./types.js";

/** Runs the approved call; `sandboxed` when Keel, not a person, approved a shell command. */
export async function* runApproved(
  ctx: PipelineContext,
  call: { id: string; tool: AnyTool; input: Record<string, unknown>; sandboxed: boolean },
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, ToolResult> {
  const { tool, input } = call;
  if (signal.aborted)
    return { content: "Interrupted by the user before the tool ran.", isError: true };
  const readBarred = readBarredBy(ctx, tool.kind);
  let result: ToolResult;
  try {
    const streaming = ctx.streaming?.get(tool.name);
    result = streaming
      ? yield* streaming(input, { id: call.id, signal })
      : yield* withProgress<ToolResult, AgentEvent>((emit) =>
          tool.run(input, {
            signal,
            sandboxed: call.sandboxed,
            ...(readBarred ? { readBarred } : {}),
            ...(ctx.toolEnv ? { env: ctx.toolEnv } : {}),
            onOutput: (text) => emit({ type: "tool_output", id: call.id, text }),
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
 * For a read tool or the shell, the test of files that a deny or ask rule keeps from read_file
 * (grep over a directory skips them; a sandboxed command finds them empty), or undefined when no
 * rule could.
 */
function readBarredBy(ctx: PipelineContext, kind: string): ((abs: string) => boolean) | undefined {
  const rules = ctx.rules;
  if ((kind !== "read" && kind !== "shell") || rules === undefined) return undefined;
  // Only Read rules bar reading: a Bash deny rule must not make every sandboxed command
  // search the project.
  const barring = rules.rules.filter(
    (r) => r.kind !== "allow" && (kind === "read" || /^Read(\(|$)/.test(r.text)),
  );
  if (barring.length === 0) return undefined;
  const projectDir = ctx.info.projectDir;
  return (abs) =>
    barring.some((r) =>
      r.test({ toolName: "read_file", input: { path: abs }, projectDir, homeDir: rules.homeDir }),
    );
}
