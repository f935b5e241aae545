/**
 * What every `keel hooks` subcommand shares: the project directory, Keel's home, opening the
 * engine, and where output goes.
 */
import { childProcessEnv } from "../../agent/provider-env.js";
import { createHookEngine } from "../../hooks/index.js";
import type { HookEngine, HookEngineOptions } from "../../hooks/types.js";
import { BUILTIN_TOOL_HOOK_FACTS } from "../../tools/hook-facts.js";
import { keelHomeDir } from "../paths.js";

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

export { keelHomeDir, resolveProjectDir } from "../paths.js";

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
