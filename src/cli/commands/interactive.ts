/**
 * The default action: `keel` with no subcommand starts the interactive TUI. Everything the
 * action needs (the hooks engine, the TUI with Ink and React) is imported inside it: this
 * module is registered for every command, and `keel --help` must not pay for them.
 */
import { type Command, Option } from "commander";
import { PERMISSION_MODES, type PermissionMode } from "../../agent/permissions/modes.js";
import { EFFORT_LEVELS, isEffortLevel } from "../llm-config.js";
import { UserError } from "../user-error.js";
import { type InteractiveFlags, startInteractive } from "./interactive-start.js";

function isMode(value: string): value is PermissionMode {
  return PERMISSION_MODES.some((m) => m === value);
}

/**
 * Checks commander's option values (it has already checked --mode's choices). Written out
 * rather than with zod: this runs before the TUI's first frame, and zod would load for it.
 */
function parseFlags(raw: Record<string, unknown>): InteractiveFlags {
  const text = (name: string): string | undefined => {
    const value = raw[name];
    if (value === undefined) return undefined;
    if (typeof value !== "string" || value === "") {
      throw new UserError(`--${name}: expected a non-empty value`);
    }
    return value;
  };
  const branch = text("branch");
  if (branch !== undefined && !/^[1-8]$/.test(branch)) {
    throw new UserError("--branch: expected a number of samples from 1 to 8");
  }
  const mode = text("mode");
  if (mode !== undefined && !isMode(mode)) {
    throw new UserError(`--mode: expected one of ${PERMISSION_MODES.join(", ")}`);
  }
  const model = text("model");
  const effort = text("effort");
  if (effort !== undefined && !isEffortLevel(effort)) {
    throw new UserError(`--effort: expected one of ${EFFORT_LEVELS.join(", ")} (got "${effort}")`);
  }
  const resume = text("resume");
  const cwd = text("cwd");
  return {
    ...(model !== undefined ? { model } : {}),
    ...(mode !== undefined ? { mode } : {}),
    ...(effort !== undefined ? { effort } : {}),
    continue: raw.continue === true,
    ...(resume !== undefined ? { resume } : {}),
    ...(cwd !== undefined ? { cwd } : {}),
    harvest: raw.harvest === true,
    ...(branch !== undefined ? { branch: Number(branch) } : {}),
  };
}

/** Registers the default action and its options on the program itself. */
export function register(program: Command): void {
  program
    // Options of `keel` itself are read only before a subcommand, so `keel run --model x`
    // still reaches `run`; stray words are reported by the action below.
    .enablePositionalOptions()
    .allowExcessArguments(true)
    .addOption(new Option("-m, --model <model>", "model for the interactive session"))
    .addOption(
      new Option("--mode <mode>", "permission mode for the interactive session").choices(
        PERMISSION_MODES,
      ),
    )
    .addOption(
      new Option(
        "--effort <level>",
        `reasoning effort: ${EFFORT_LEVELS.join(" | ")} (as the model takes it; /effort changes it)`,
      ),
    )
    .addOption(new Option("-c, --continue", "resume this project's most recent session"))
    .addOption(new Option("-r, --resume <id>", "resume a session by id (or unique prefix)"))
    .addOption(new Option("--cwd <dir>", "project directory (default: the current directory)"))
    .addOption(new Option("--harvest", "extract plan state from the model's reasoning"))
    .addOption(new Option("--branch <n>", "N samples per request at spread temperatures"))
    .action(async (raw: Record<string, unknown>, cmd: Command) => {
      if (cmd.args.length > 0) {
        throw new UserError(`unknown command '${cmd.args[0]}' (see \`keel --help\`)`);
      }
      const o = parseFlags(raw);
      if (o.continue && o.resume !== undefined) {
        throw new UserError("--continue and --resume cannot be used together");
      }
      await startInteractive(o);
    });
}
