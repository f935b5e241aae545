/**
 * `keel hooks list` and `keel hooks list --json` as main.ts runs them without commander: the
 * action commander would call, with the options it would pass. A module of its own so the build
 * can make it one file (scripts/build-cli.mjs, mergeChunks): loading the dozen chunks of the
 * hooks command one by one costs ~2.5 ms of a ~40 ms start.
 */
import { runHooksList } from "./hooks.js";
import { processOutput } from "./hooks-shared.js";

/** Runs `keel hooks list` (`--json` when asked); sets the exit code as the command does. */
export async function runList(json: boolean): Promise<number> {
  const code = await runHooksList(json ? { json: true } : {}, processOutput);
  process.exitCode = code;
  return code;
}
