/** A loaded, trust-resolved and compiled view of every hook: what one engine fires from. */
import { type HookPaths, type LoadedHooks, loadHooks } from "./config/load.js";
import { readConfigText } from "./config/read-file.js";
import type { HookEventName } from "./events.js";
import { indexByEvent, type PreparedHook, prepareHook } from "./plan.js";
import { isTrusted, projectHooksHash, projectScopedHooks } from "./trust.js";
import type { HookListing } from "./types.js";

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
      sources: loaded.sources,
      projectTrust: { trusted, hash, hasProjectHooks },
    },
    byEvent: indexByEvent(hooks.map(prepareHook)),
  };
}

/** Reads every source and the trust store. Never throws. */
export async function takeSnapshot(paths: HookPaths): Promise<HookSnapshot> {
  const loaded = await loadHooks(paths);
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
