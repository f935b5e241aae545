/**
 * What every `keel hooks` subcommand shares: the project directory, Keel's home, opening the
 * engine, and where output goes.
 */
import { stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { childProcessEnv } from "../../agent/provider-env.js";
import { createHookEngine } from "../../hooks/index.js";
import type { HookEngine, HookEngineOptions } from "../../hooks/types.js";
import { BUILTIN_TOOL_HOOK_FACTS } from "../../tools/hook-facts.js";
import { UserError } from "../main.js";

/** Where a command writes; the process streams in normal use. */
export interface Output {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Output to the process's stdout and stderr. */
export const processOutput: Output = {
  stdout: (text) => {
    process.stdout.write(text);
  },
  stderr: (text) => {
    process.stderr.write(text);
  },
};

/** `$KEEL_HOME`, else `~/.keel`. */
export function keelHomeDir(): string {
  const fromEnv = process.env.KEEL_HOME;
  return fromEnv !== undefined && fromEnv !== "" ? resolve(fromEnv) : join(homedir(), ".keel");
}

/** The absolute project directory for `--cwd DIR` (default: the current directory). */
export async function resolveProjectDir(cwd: string | undefined): Promise<string> {
  const dir = resolve(cwd ?? process.cwd());
  const info = await stat(dir).catch(() => null);
  if (info === null) throw new UserError(`--cwd: no such directory: ${dir}`);
  if (!info.isDirectory()) throw new UserError(`--cwd: not a directory: ${dir}`);
  return dir;
}

/** Creates the hooks engine for a project, the way the agent would. */
export async function openEngine(
  projectDir: string,
  runners: Pick<HookEngineOptions, "promptRunner" | "agentRunner"> = {},
): Promise<HookEngine> {
  return createHookEngine({
    projectDir,
    keelHome: keelHomeDir(),
    env: childProcessEnv(process.env, { keelHome: keelHomeDir() }),
    tools: BUILTIN_TOOL_HOOK_FACTS,
    ...runners,
  });
}
