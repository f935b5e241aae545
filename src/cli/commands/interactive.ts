/**
 * The default action: `keel` with no subcommand starts the interactive TUI. Everything the
 * action needs (zod, the hooks engine, the TUI with Ink and React) is imported inside it: this
 * module is registered for every command, and `keel --help` must not pay for them.
 */
import { type Command, Option } from "commander";
import { PERMISSION_MODES } from "../../agent/permissions.js";
import { UserError } from "../main.js";

async function optionsSchema() {
  const { z } = await import("zod");
  return z.object({
    model: z.string().min(1).optional(),
    mode: z.enum(PERMISSION_MODES).optional(),
    continue: z.boolean().default(false),
    resume: z.string().min(1).optional(),
    cwd: z.string().optional(),
    harvest: z.boolean().default(false),
    branch: z
      .string()
      .regex(/^[1-8]$/, { message: "expected a number of samples from 1 to 8" })
      .transform(Number)
      .optional(),
  });
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
    .addOption(new Option("-c, --continue", "resume this project's most recent session"))
    .addOption(new Option("-r, --resume <id>", "resume a session by id (or unique prefix)"))
    .addOption(new Option("--cwd <dir>", "project directory (default: the current directory)"))
    .addOption(new Option("--harvest", "extract plan state from the model's reasoning"))
    .addOption(new Option("--branch <n>", "N samples per request at spread temperatures"))
    .action(async (raw: Record<string, unknown>, cmd: Command) => {
      if (cmd.args.length > 0) {
        throw new UserError(`unknown command '${cmd.args[0]}' (see \`keel --help\`)`);
      }
      const parsed = (await optionsSchema()).safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new UserError(
          `--${String(issue?.path[0] ?? "option")}: ${issue?.message ?? "invalid value"}`,
        );
      }
      const o = parsed.data;
      if (o.continue && o.resume !== undefined) {
        throw new UserError("--continue and --resume cannot be used together");
      }
      const { keelHomeDir, resolveProjectDir } = await import("../paths.js");
      const projectDir = await resolveProjectDir(o.cwd);
      const { runInteractive } = await import("../tui/run.js");
      await runInteractive({
        keelHome: keelHomeDir(),
        projectDir,
        ...(o.model !== undefined ? { model: o.model } : {}),
        ...(o.mode !== undefined ? { mode: o.mode } : {}),
        ...(o.resume !== undefined ? { resume: o.resume } : {}),
        continueLatest: o.continue,
        ...(o.harvest ? { harvest: true } : {}),
        ...(o.branch !== undefined ? { branch: o.branch } : {}),
      });
    });
}
