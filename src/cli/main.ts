/**
 * The `keel` program: parses arguments with commander and dispatches to the commands.
 * Returns the process exit code; never lets a user mistake surface as a stack trace.
 *
 * Each command lives in `commands/<name>.ts` and exports `register(program)`; add one line to
 * COMMANDS below to wire a new one.
 */
import { Command, CommanderError } from "commander";
import { VERSION } from "../version.js";

/** A command module's registration function. */
export type RegisterCommand = (program: Command) => void;

const COMMANDS: Array<() => Promise<{ register: RegisterCommand }>> = [
  // one line per command module, e.g. () => import("./commands/hooks.js"),
  () => import("./commands/sim.js"),
  () => import("./commands/interactive.js"),
  () => import("./commands/doctor.js"),
  () => import("./commands/sessions.js"),
  () => import("./commands/stats.js"),
  () => import("./commands/run.js"),
  () => import("./commands/hooks.js"),
  () => import("./commands/mcp.js"),
];

/** Builds the commander program with every command registered (exported for tests). */
export async function buildProgram(): Promise<Command> {
  const program = new Command("keel")
    .description(
      "A cache-first terminal coding agent with hooks.\nRun `keel` with no command for the interactive session.",
    )
    .version(VERSION, "-v, --version")
    .exitOverride()
    .showHelpAfterError()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  for (const load of COMMANDS) {
    (await load()).register(program);
  }
  return program;
}

/** Thrown by commands for user mistakes: printed as one line, exit code 1, no stack trace. */
export class UserError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** Runs the program with the given arguments (without `node` and the script path). */
export async function main(argv: string[]): Promise<number> {
  const program = await buildProgram();
  try {
    await program.parseAsync(argv, { from: "user" });
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.exitCode === 0 ? 0 : 1;
    }
    if (err instanceof UserError) {
      process.stderr.write(`keel: ${err.message}\n`);
      return err.exitCode;
    }
    process.stderr.write(`keel: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
