/**
 * The `keel` program: parses arguments with commander and dispatches to the commands.
 * Returns the process exit code; never lets a user mistake surface as a stack trace.
 */
import { Command, CommanderError } from "commander";
import { VERSION } from "../version.js";

/** Builds the commander program (exported for tests and `--help` checks). */
export function buildProgram(): Command {
  const program = new Command("keel")
    .description("A cache-first terminal coding agent with hooks")
    .version(VERSION, "-v, --version")
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  return program;
}

/** Runs the program with the given arguments (without `node` and the script path). */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: "user" });
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.exitCode === 0 ? 0 : 1;
    }
    process.stderr.write(`keel: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
