/** Step 1, prepare: the call names a tool this session has, and its input fits the schema. */
import { type AnyTool, findTool, validateToolInput } from "../../tools/registry.js";
import type { PipelineContext, PreparedCall } from "./types.js";

/** The tool and validated input, or the error the model gets instead of a run. `cwd` is the
 *  session's shell directory as this call found it (shell-cwd.ts): everything the call does and
 *  every judge of it resolves against this one directory. */
export type Prepared =
  | { ok: true; tool: AnyTool; input: Record<string, unknown>; cwd: string }
  | { ok: false; error: string };

/** Validates one call. Never throws. */
export function prepareCall(ctx: PipelineContext, call: PreparedCall): Prepared {
  if (call.error !== undefined) return { ok: false, error: call.error };
  const tool = findTool(ctx.tools, call.name);
  if (tool === undefined) {
    const names = ctx.tools.map((t) => t.name).join(", ");
    return { ok: false, error: `Unknown tool \`${call.name}\`. Available tools: ${names}.` };
  }
  const valid = validateToolInput(tool, call.input);
  if (!valid.ok) return { ok: false, error: valid.error };
  return { ok: true, tool, input: valid.input, cwd: ctx.shellCwd?.get() ?? ctx.info.projectDir };
}

/** The tool's primary argument (the shell command, the path), or undefined when it has none. */
export function safePrimary(tool: AnyTool, input: Record<string, unknown>): string | undefined {
  try {
    return tool.primaryArg(input);
  } catch {
    return undefined;
  }
}
