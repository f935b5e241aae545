/**
 * After a call that left the shell in another directory: the session's shell moves there
 * (shell-cwd.ts) and CwdChanged fires with `old_cwd`/`new_cwd`, as Claude Code fires it after a
 * Bash command that changed its cwd. Its hooks may write CLAUDE_ENV_FILE (a direnv-style
 * environment for the new folder) and return `watchPaths`: the session re-reads and watches
 * them (afterCwdChanged). Nothing the hooks answer can undo the move: the event only informs.
 */
import type { AgentEvent } from "../events.js";
import { fireHook } from "../hook-adapter/fire.js";
import type { PipelineContext } from "./types.js";

export async function* fireCwdChanged(
  ctx: PipelineContext,
  cwd: string,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, void> {
  const state = ctx.shellCwd;
  if (state === undefined) return;
  const old = state.set(cwd);
  if (old === null) return;
  const decision = yield* fireHook(
    ctx.hooks,
    ctx.info,
    "CwdChanged",
    { old_cwd: old, new_cwd: cwd },
    signal,
  );
  try {
    await ctx.afterCwdChanged?.(decision);
  } catch {
    // The move stands whatever the follow-up did; the session keeps going.
  }
}
