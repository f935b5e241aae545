/**
 * Reading a tool's loosely typed `tool_response` and input for the per-agent response shapes
 * (dialects/claude/responses.ts, qwen/responses.ts, reasonix1/responses.ts).
 */

export type Response = Record<string, unknown>;
export type Input = Record<string, unknown>;

/** The response's fields, or none when it is not an object. */
export function fields(response: unknown): Response {
  return typeof response === "object" && response !== null ? (response as Response) : {};
}

/** The value when it is a string, else "". */
export function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}
