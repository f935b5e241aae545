/**
 * What every `keel hooks` subcommand shares: the project directory, Keel's home, opening the
 * engine, and where output goes.
 */
import { fstatSync } from "node:fs";
import { childProcessEnv } from "../../../agent/provider-env.js";
import type { HookEngine, HookEngineOptions, HookListing } from "../../../hooks/index.js";
import { resolveHookPaths, takeListing } from "../../../hooks/index.js";
import { TEXT_WIDTH } from "../../format/text.js";
import { keelHomeDir } from "../../paths.js";
import { writeStderr, writeStdout } from "../../stdout.js";

/** Where a command writes; the process streams in normal use. */
export interface Output {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Columns stdout's text is wrapped to; Infinity when it is not wrapped (default 80). */
  width?(): number;
}

/** Output to the process's stdout and stderr. */
export const processOutput: Output = {
  stdout: (text) => writeStdout(text),
  stderr: (text) => writeStderr(text),
  width: () => (stdoutIsTerminal() ? TEXT_WIDTH : Number.POSITIVE_INFINITY),
};

/** Whether fd 1 can be a terminal. Only a character device can: known from one fstat, without
 *  creating process.stdout (node:tty and its streams cost start-up time, bin/keel.js). */
function stdoutIsTerminal(): boolean {
  try {
    return fstatSync(1).isCharacterDevice();
  } catch {
    return true;
  }
}

export { keelHomeDir, resolveProjectDir } from "../../paths.js";

/** Creates the hooks engine for a project, the way the agent would. The engine (its handlers,
 *  the tool facts) is loaded here, for the commands that fire or trust hooks. */
export async function openEngine(
  projectDir: string,
  runners: Pick<HookEngineOptions, "promptRunner" | "agentRunner" | "session"> = {},
): Promise<HookEngine> {
  const [{ createHookEngine }, { BUILTIN_TOOL_HOOK_FACTS }] = await Promise.all([
    import("../../../hooks/index.js"),
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
