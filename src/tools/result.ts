/** Small helpers every tool uses to build results and to keep `run` from throwing. */
import type { ToolResult } from "./types.js";

/** An error result worded for the model. */
export function toolError(content: string, details?: Record<string, unknown>): ToolResult {
  return details ? { content, isError: true, details } : { content, isError: true };
}

/** Runs a tool body; anything it throws becomes an error result naming the tool. */
export async function guarded(tool: string, body: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await body();
  } catch (err) {
    return toolError(`${tool}: ${describeError(err)}`);
  }
}

/** A one-line description of a thrown value, with the errno code when there is one. */
export function describeError(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    return code && !err.message.includes(code) ? `${code}: ${err.message}` : err.message;
  }
  return String(err);
}

/** The errno code of a thrown value, if any. */
export function errnoCode(err: unknown): string | undefined {
  return err instanceof Error ? (err as NodeJS.ErrnoException).code : undefined;
}
