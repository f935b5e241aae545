/**
 * The `keel` program: parses arguments with commander and dispatches to the commands.
 * Returns the process exit code; never lets a user mistake surface as a stack trace.
 *
 * Each command lives in `commands/<name>.ts` and exports `register(program)`; add one line to
 * COMMANDS below to wire a new one. Only the command that runs is loaded (start-up time): the
 * root help, which lists every command, comes from dist/bundle/help.json, written at build time
 * from the full program (scripts/build-cli.mjs); without it every command is loaded.
 *
 * commander itself is loaded only when a program is built, which `keel` alone never does.
 * `keel hooks list [--json]`, word for word, does not come here: bin/keel.js runs it through
 * src/cli/direct.ts.
 */
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { VERSION } from "../version.js";
import { writeStderr } from "./stdout.js";
import { reportFailure } from "./user-error.js";

/** A command module's registration function. */
export type RegisterCommand = (program: Command) => void;

type Loader = () => Promise<{ register: RegisterCommand }>;

/** commander, loaded on first use. */
let commander: typeof import("commander") | undefined;
const loadCommander = async () => {
  commander ??= await import("commander");
  return commander;
};

/** Subcommands by name (one line per command module). */
const COMMANDS: Array<[name: string, load: Loader]> = [
  ["sim", () => import("./commands/sim.js")],
  ["doctor", () => import("./commands/doctor.js")],
  ["sessions", () => import("./commands/sessions.js")],
  ["stats", () => import("./commands/stats.js")],
  ["run", () => import("./commands/run.js")],
  ["hooks", () => import("./commands/hooks/index.js")],
  ["mcp", () => import("./commands/mcp.js")],
  ["plugins", () => import("./commands/plugins.js")],
  ["docs", () => import("./commands/docs.js")],
  ["acp", () => import("./commands/acp.js")],
];

/** `keel` without a subcommand: the interactive session, whose options are the root's. */
const INTERACTIVE: Loader = () => import("./commands/interactive.js");

/** Root options that take a value (the word after them is not a command name). */
const ROOT_VALUE_OPTIONS = new Set([
  "-m",
  "--model",
  "--mode",
  "--effort",
  "-r",
  "--resume",
  "--cwd",
]);

/** Commander's help width when stdout is not a terminal; help.json is rendered at it. */
const HELP_WIDTH = 80;

async function rootProgram(): Promise<Command> {
  const { Command } = await loadCommander();
  return (
    new Command("keel")
      .description(
        "A cache-first terminal coding agent with hooks.\nRun `keel` with no command for the interactive session.",
      )
      .version(VERSION, "-v, --version")
      // Root options only before a subcommand, whether or not the session's are registered.
      .enablePositionalOptions()
      .exitOverride()
      .configureOutput({ writeErr: (s) => writeStderr(s) })
  );
}

/** Builds the commander program with every command registered (exported for tests and for
 *  writing help.json at build time). */
export async function buildProgram(): Promise<Command> {
  const program = await rootProgram();
  (await INTERACTIVE()).register(program);
  for (const [, load] of COMMANDS) (await load()).register(program);
  return program;
}

/** The root help text of the full program, as `keel --help` prints it at HELP_WIDTH columns. */
export async function rootHelpText(): Promise<string> {
  const program = await buildProgram();
  program.configureOutput({ getOutHelpWidth: () => HELP_WIDTH });
  return program.helpInformation();
}

/** The subcommand `argv` names, "" for none (the interactive session), or null when unsure. */
function commandOf(argv: readonly string[]): string | null {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? "";
    if (a === "--") return "";
    if (a.startsWith("-")) {
      if (ROOT_VALUE_OPTIONS.has(a)) i++;
      continue;
    }
    if (a === "help") return null;
    return a;
  }
  return "";
}

/** The root help written at build time, or null (tsc-only build, tests). */
function prebuiltHelp(): string | null {
  // This code sits in dist/bundle/keel.mjs or in one of its chunks next to it.
  for (const rel of ["./help.json"]) {
    const file = new URL(rel, import.meta.url);
    if (!file.pathname.endsWith("/dist/bundle/help.json")) continue;
    try {
      const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
      const { version, help } = (parsed ?? {}) as { version?: unknown; help?: unknown };
      return version === VERSION && typeof help === "string" ? help : null;
    } catch {
      // Not built here; try the other place.
    }
  }
  return null;
}

/** The program with only what `argv` runs registered (everything when unsure). */
async function programFor(argv: readonly string[]): Promise<Command> {
  const name = commandOf(argv);
  if (name === null) return buildProgram();
  const help = prebuiltHelp();
  if (help === null) return buildProgram();
  const asksRootHelp = name === "" && argv.some((a) => a === "-h" || a === "--help");
  // A terminal of another width gets commander's own layout for it. (process.stdout only
  // when asked for help: creating the stream costs start-up time.)
  if (asksRootHelp && process.stdout.isTTY && process.stdout.columns !== HELP_WIDTH) {
    return buildProgram();
  }
  const program = await rootProgram();
  const entry = COMMANDS.find(([n]) => n === name);
  // The root's own options (the interactive session's) are read only before a subcommand
  // (positional options): `keel hooks list` needs none of them, `keel -m x run` does.
  if (!entry || argv[0] !== name) (await INTERACTIVE()).register(program);
  if (entry) (await entry[1]()).register(program);
  // The root help lists every command, loaded or not: the text the full program printed.
  program.helpInformation = () => help;
  return program;
}

/**
 * A mistyped flag or argument gets commander's one-line error and where the usage is
 * (`keel run --help`), not the whole help text after it.
 */
function pointToHelpOnError(cmd: Command, path: string): void {
  cmd.showHelpAfterError(`(see \`${path} --help\`)`);
  for (const sub of cmd.commands) pointToHelpOnError(sub, `${path} ${sub.name()}`);
}

/** Runs the program with the given arguments (without `node` and the script path). */
export async function main(argv: string[]): Promise<number> {
  // `keel` alone, the most common start: no option to parse, so no commander program is
  // built before the TUI's first frame (~4 ms). The action it would run is the same function.
  if (argv.length === 0) {
    try {
      const { startInteractive } = await import("./commands/interactive-start.js");
      await startInteractive({ continue: false, harvest: false });
      return typeof process.exitCode === "number" ? process.exitCode : 0;
    } catch (err) {
      return reportFailure(err);
    }
  }
  const program = await programFor(argv);
  pointToHelpOnError(program, "keel");
  try {
    await program.parseAsync(argv, { from: "user" });
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (err) {
    return reportError(err);
  }
}

/** A failed run's exit code, its message on stderr (commander has printed its own). */
function reportError(err: unknown): number {
  if (commander !== undefined && err instanceof commander.CommanderError) {
    return err.exitCode === 0 ? 0 : 1;
  }
  return reportFailure(err);
}
