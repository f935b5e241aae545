/**
 * `keel run` fails closed on untrusted project hooks: hooks present in the project but not
 * trusted (never, or changed since they were) do not run, so a headless run would lose the
 * guards they are. It stops before the first model request, naming each hook and how to go on,
 * unless the user said `--without-project-hooks`.
 */

import {
  childProcessEnv,
  untrustedHookLine,
  untrustedProjectHooks,
  untrustedWhy,
} from "../../agent/index.js";
import { resolveHookPaths, takeListing } from "../../hooks/index.js";
import { stripControls } from "../terminal-text.js";

/** The refusal text (several lines), or null when every project hook is trusted. */
export async function untrustedHooksRefusal(opts: {
  projectDir: string;
  keelHome: string;
}): Promise<string | null> {
  const env = childProcessEnv(process.env, { keelHome: opts.keelHome });
  const paths = resolveHookPaths({ projectDir: opts.projectDir, keelHome: opts.keelHome, env });
  const listing = await takeListing(paths, env);
  const hooks = untrustedProjectHooks(listing);
  if (hooks.length === 0) return null;
  const why = await untrustedWhy(paths.keelHome, paths.projectDir);
  const lines = hooks.map(
    (h) => `  ${stripControls(untrustedHookLine(h, paths.projectDir))}  (${why})`,
  );
  const n = hooks.length;
  return [
    `${n} project hook${n === 1 ? " is" : "s are"} not trusted (${why}); they would not run, so keel run stops before asking the model:`,
    ...lines,
    "Review them with `keel hooks list`, then trust them with `keel hooks trust`; or run without them on purpose with `keel run --without-project-hooks …`.",
  ].join("\n");
}
