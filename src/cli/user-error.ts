/**
 * User mistakes and how a failed command reports itself. A module of its own so the start-up
 * path that runs without commander (src/cli/direct.ts, bundled on its own as CommonJS, with a
 * copy of this class) does not bring the program (src/cli/main.ts) into its bundle.
 */
import { writeStderr } from "./stdout.js";

/** Thrown by commands for user mistakes: printed as one line, exit code 1, no stack trace. */
export class UserError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** A failed command's exit code, its message on stderr as one line (no stack trace). */
export function reportFailure(err: unknown): number {
  if (err instanceof UserError) {
    writeStderr(`keel: ${err.message}\n`);
    return err.exitCode;
  }
  writeStderr(`keel: ${err instanceof Error ? err.message : String(err)}\n`);
  return 1;
}
