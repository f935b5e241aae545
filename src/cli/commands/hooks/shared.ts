/**
 * What every `keel hooks` subcommand shares: the project directory, Keel's home, opening the
 * engine, and where output goes.
 */
import { childProcessEnv } from "../../../agent/provider-env.js";
import { resolveHookPaths } from "../../../hooks/config/load.js";
import type { HookEngine, HookEngineOptions, HookListing } from "../../../hooks/index.js";
import { takeListing } from "../../../hooks/snapshot.js";
import { keelHomeDir } from "../../paths.js";
import { writeStderr, writeStdout } from "../../stdout.js";

/** Where a command writes; the process streams in normal use. */
export interface Output {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Output to the process's stdout and stderr. */
export const processOutput: Output = {
  stdout: (text) => writeStdout(text),
  stderr: (text) => writeStderr(text),
};

export { keelHomeDir, resolveProjectDir } from "../../paths.js";

/** Creates the hooks engine for a project, the way the agent would. The engine (its handlers,
 *  the tool facts) is loaded here, for the commands that fire or trust hooks. */
export async function openEngine(
  projectDir: string,
  runners: Pick<HookEngineOptions, "promptRunner" | "agentRunner" | "session"> = {},
): Promise<HookEngine> {
  const [{ createHookEngine }, { BUILTIN_TOOL_HOOK_FACTS }] = await Promise.all([
    import("../../../hooks/engine.js"),
    import("../../../tools/hook-facts.js"),
  ]);
  return createHookEngine({
    projectDir,
    keelHome: keelHomeDir(),
    env: childProcessEnv(process.env, { keelHome: keelHomeDir() }),
    tools: BUILTIN_TOOL_HOOK_FACTS,
    ...runners,
  });
}

/** What the engine of openEngine() would list, read without loading the engine: the listing
 *  of the snapshot createHookEngine takes, for `keel hooks list` and `validate`. */
export async function readListing(projectDir: string): Promise<HookListing> {
  const keelHome = keelHomeDir();
  const env = childProcessEnv(process.env, { keelHome });
  return takeListing(resolveHookPaths({ projectDir, keelHome, env }), env);
}
