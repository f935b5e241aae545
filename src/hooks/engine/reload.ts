/**
 * Reloading the hooks from disk: ConfigChange fires for every file that changed, with the hooks
 * in force before, and a block keeps those hooks.
 */
import { isInside } from "../config/load.js";
import { type HookSnapshot, takeSnapshot } from "../snapshot.js";
import type { HookListing, HookProblem, HookSource } from "../types.js";
import type { EngineContext } from "./context.js";
import { fireEvent } from "./fire.js";

/** Reads every source again; the new snapshot replaces the old unless a ConfigChange hook
 *  blocked, in which case the old stays, its listing saying what blocked. */
export async function reloadHooks(ctx: EngineContext): Promise<HookListing> {
  const next = await takeSnapshot(ctx.paths, ctx.opts.env);
  const blocked = await fireConfigChanges(ctx, ctx.snapshot, next);
  if (blocked.length === 0) ctx.snapshot = next;
  else {
    const { listing } = ctx.snapshot;
    const problems = [...listing.problems, ...blocked];
    const allProblems = [...listing.allProblems, ...blocked];
    ctx.snapshot = { ...ctx.snapshot, listing: { ...listing, problems, allProblems } };
  }
  return ctx.snapshot.listing;
}

/** ConfigChange's `source` for a file: user, project or local settings. */
function configSourceOf(
  path: string,
  sources: readonly HookSource[],
  paths: { projectDir: string },
): "user_settings" | "project_settings" | "local_settings" {
  const inProject = isInside(paths.projectDir, path);
  const scope =
    sources.find((s) => s.path === path)?.scope ??
    (!inProject ? "user" : path.includes(".local.") ? "local" : "project");
  return scope === "user"
    ? "user_settings"
    : scope === "local"
      ? "local_settings"
      : "project_settings";
}

/** Fires ConfigChange for every file that differs between two snapshots, with the hooks in
 *  force before (a new hook must not approve its own arrival); returns what blocked. */
async function fireConfigChanges(
  ctx: EngineContext,
  before: HookSnapshot,
  after: HookSnapshot,
): Promise<HookProblem[]> {
  const common = ctx.opts.sessionPayload?.();
  if (!common || !before.byEvent.has("ConfigChange")) return [];
  const old = new Map(before.loaded.files.map((f) => [f.path, f.content]));
  const out: HookProblem[] = [];
  for (const file of after.loaded.files) {
    if (old.has(file.path) && old.get(file.path) === file.content) continue;
    const source = configSourceOf(file.path, after.loaded.sources, ctx.paths);
    const decision = await fireEvent(ctx, {
      event: "ConfigChange",
      payload: { ...common, hook_event_name: "ConfigChange", source, file_path: file.path },
    });
    if (decision.decision === "block" || decision.decision === "deny") {
      out.push({
        severity: "warning",
        path: file.path,
        message: `a ConfigChange hook blocked this change; the hooks in force are unchanged: ${decision.reason ?? "blocked"}`,
      });
    }
  }
  return out;
}
