/**
 * `keel hooks list` and `keel hooks list --json`, word for word, as bin/keel.js runs them:
 * without commander and without the ES module loader (start-up time, bench/peers). The action
 * commander would call, with the options it would pass; any other words go through the program
 * (src/cli/main.ts), which prints the same (test/cli/lazy-start.test.ts).
 *
 * scripts/build-cli.mjs bundles this file alone as CommonJS (dist/bundle/direct.cjs), which
 * bin/keel.js runs with a V8 code cache taken after a run: the functions a listing calls are
 * compiled once, not at every start.
 */
import { runHooksList } from "./commands/hooks/index.js";
import { processOutput } from "./commands/hooks/shared.js";
import { reportFailure } from "./user-error.js";

/** Runs `keel hooks list [--json]` (`argv` without `node` and the script); the exit code. */
export async function runDirect(argv: readonly string[]): Promise<number> {
  const json = argv.length === 3 && argv[2] === "--json";
  if (argv[0] !== "hooks" || argv[1] !== "list" || (argv.length !== 2 && !json)) {
    throw new Error(`not a command direct.ts runs: ${argv.join(" ")}`);
  }
  try {
    return await runHooksList(json ? { json: true } : {}, processOutput);
  } catch (err) {
    return reportFailure(err);
  }
}
