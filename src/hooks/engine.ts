/**
 * The hooks engine: a snapshot of every hook for one project, fired as plan (event, matcher,
 * `if`, trust, dedup) → run (parallel and bounded; in order for dialects whose agents do that)
 * → aggregate. fire() never throws. The parts live in engine/: the shared context
 * (context.ts), one firing (fire.ts), one hook's run (run-hook.ts), reloading (reload.ts).
 */
import { aggregate } from "./aggregate.js";
import { createEngineContext, type EngineContext, type EngineExtras } from "./engine/context.js";
import { fireEvent } from "./engine/fire.js";
import { reloadHooks } from "./engine/reload.js";
import { SESSION_END_BUDGET_MS } from "./events.js";
import { killLeftoverGroups } from "./process.js";
import { applyTrust, snapshotChanged } from "./snapshot.js";
import { setTrust } from "./trust.js";
import type { FireOptions, HookDecision, HookEngine, HookEngineOptions } from "./types.js";

export type { EngineExtras } from "./engine/context.js";

/** Creates an engine for one project: reads every source now (the snapshot). */
export async function createHookEngine(
  opts: HookEngineOptions & EngineExtras,
): Promise<HookEngine> {
  const ctx = await createEngineContext(opts);
  const { projectDir, keelHome } = ctx.paths;
  return {
    fire: (options) => fireSafely(ctx, options),
    listing: () => ctx.snapshot.listing,
    reload: () => reloadHooks(ctx),
    changedOnDisk: () => snapshotChanged(ctx.snapshot),
    async trust() {
      // Trust what the user reviewed (the snapshot), not whatever is on disk now.
      await setTrust(keelHome, projectDir, ctx.snapshot.listing.projectTrust.hash);
      ctx.snapshot = applyTrust(ctx.snapshot.loaded, true, ctx.snapshot.executed);
    },
    async untrust() {
      await setTrust(keelHome, projectDir, null);
      ctx.snapshot = applyTrust(ctx.snapshot.loaded, false, ctx.snapshot.executed);
    },
    stats: () => ctx.stats.snapshot(),
    takeAsyncResults: () => ctx.background.take(),
    shutdown: async (o) => {
      await ctx.background.shutdown(o?.budgetMs ?? SESSION_END_BUDGET_MS);
      // Session end: what finished hooks left in their process groups goes too.
      await killLeftoverGroups();
    },
  };
}

/** One firing that never throws, carrying the trust notices gathered since the last one. */
async function fireSafely(ctx: EngineContext, options: FireOptions): Promise<HookDecision> {
  try {
    const decision = await fireEvent(ctx, options);
    if (ctx.trustLost.length > 0) decision.notices = ctx.trustLost.splice(0);
    return decision;
  } catch (err) {
    // A bug here must not take the agent down: report it as a pass with a visible message.
    const decision = aggregate(options.event, []);
    decision.systemMessages.push(
      `hooks engine error: ${err instanceof Error ? err.message : String(err)}`,
    );
    return decision;
  }
}
