/** A loaded, trust-resolved and compiled view of every hook: what one engine fires from. */
import { type HookPaths, type LoadedHooks, loadHooks } from "./config/load.js";
import { readConfigText } from "./config/read-file.js";
import type { HookEventName } from "./events.js";
import { indexByEvent, type PreparedHook, prepareHook } from "./plan.js";
import { isTrusted, projectHooksHash, projectScopedHooks } from "./trust.js";
import type { HookListing } from "./types.js";
import { uniqueProblems } from "./util.js";
import { findMissingExecutables } from "./validate.js";

/** One snapshot of the hooks on disk. */
export interface HookSnapshot {
  loaded: LoadedHooks;
  listing: HookListing;
  byEvent: Map<HookEventName, PreparedHook[]>;
}

/** Applies a trust state to a loaded set: user hooks are always trusted. */
export function applyTrust(loaded: LoadedHooks, projectTrusted: boolean): HookSnapshot {
  const hash = projectHooksHash(loaded.hooks, loaded.paths.projectDir);
  const hasProjectHooks = projectScopedHooks(loaded.hooks).length > 0;
  const trusted = projectTrusted || !hasProjectHooks;
  const hooks = loaded.hooks.map((h) => ({ ...h, trusted: h.source.scope === "user" || trusted }));
  return {
    loaded,
    listing: {
      hooks,
      problems: loaded.problems,
      allProblems: uniqueProblems([...loaded.problems, ...hooks.flatMap((h) => h.problems)]),
      sources: loaded.sources,
      projectTrust: { trusted, hash, hasProjectHooks },
    },
    byEvent: indexByEvent(hooks.map(prepareHook)),
  };
}

/** Reads every source and the trust store. Never throws. Command hooks whose executable is
 *  missing get that problem here, once, for every path that reports problems. */
export async function takeSnapshot(
  paths: HookPaths,
  env?: NodeJS.ProcessEnv,
): Promise<HookSnapshot> {
  const loaded = await loadHooks(paths);
  for (const hook of loaded.hooks) {
    const missing = await findMissingExecutables([hook], {
      projectDir: paths.projectDir,
      ...(env ? { env } : {}),
    });
    if (missing.length > 0) hook.problems = [...hook.problems, ...missing];
  }
  const hash = projectHooksHash(loaded.hooks, paths.projectDir);
  return applyTrust(loaded, await isTrusted(paths.keelHome, paths.projectDir, hash));
}

/** Whether any file the snapshot looked at now has different content (or appeared/vanished). */
export async function snapshotChanged(snapshot: HookSnapshot): Promise<boolean> {
  const now = await Promise.all(
    snapshot.loaded.files.map(async (f) => (await readConfigText(f.path)).content !== f.content),
  );
  return now.some(Boolean);
}
