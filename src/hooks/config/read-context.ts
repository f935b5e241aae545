/**
 * What every reader of a hooks file gets. A file of its own so that the readers' helpers
 * (unknown-fields.ts) and handler.ts both take it without importing each other.
 */
import type { DialectName, HookProblem, SourceScope } from "../types.js";
import type { FieldPath } from "./positions.js";

/** What every reader gets: the file it reads and a way to report located problems. */
export interface ReadContext {
  path: string;
  dialect: DialectName;
  scope: SourceScope;
  /** The unit of a handler's `timeout` in this file (its dialect's): seconds unless "ms";
   *  "s-or-ms" is Qwen Code 0.24's rule (dialects/qwen/timeout.ts), which needs no warning. */
  timeoutUnit?: "s" | "ms" | "s-or-ms";
  /** Line/column of a field in this file. */
  locate(at: FieldPath): { line: number; column: number } | undefined;
  /** Makes a problem located at `at` in this file. */
  problem(severity: HookProblem["severity"], at: FieldPath, message: string): HookProblem;
}
