/**
 * One hook problem as one line, the same words wherever it is shown: `keel hooks validate`,
 * `keel hooks trust`, the TUI at start and after /hooks reload.
 */
import type { HookProblem } from "../../hooks/index.js";
import { displayPath, field } from "./text.js";

/** `path:line:col: severity: message [field]`, the compiler-style line `validate` prints. */
export function problemLine(
  problem: HookProblem,
  ctx: { base?: string | undefined; home?: string | undefined; projectDir?: string },
): string {
  let where = displayPath(problem.path, { base: ctx.base, home: ctx.home });
  if (problem.line !== undefined) {
    where += `:${problem.line}`;
    if (problem.column !== undefined) where += `:${problem.column}`;
  }
  const at =
    problem.field !== undefined && problem.field !== "" && !problem.message.includes(problem.field)
      ? ` (at ${problem.field})`
      : "";
  return field(`${where}: ${problem.severity}: ${problem.message}${at}`);
}
