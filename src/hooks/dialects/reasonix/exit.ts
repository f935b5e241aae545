/** Reasonix's exit-code table: 0 pass, 2 block on its gating events, anything else a warning. */
import type { HookEventName } from "../../events.js";
import { exitWarning, nonEmpty, verdict } from "../../verdict.js";
import type { ExitTable } from "../types.js";

/** The events Reasonix lets a hook block (its Stop exit 2 is only a warning). */
export const REASONIX_GATING: ReadonlySet<HookEventName> = new Set([
  "PreToolUse",
  "UserPromptSubmit",
  "PermissionRequest",
]);

/** The table. */
export const reasonixExitTable: ExitTable = {
  name: "reasonix",
  gating: (event) => REASONIX_GATING.has(event),
  decide(ctx, run) {
    if (run.code === 0) return verdict({});
    if (run.code === 2 && REASONIX_GATING.has(ctx.event)) {
      return verdict({
        outcome: "block",
        decision: "block",
        message: nonEmpty(run.stderr) ?? nonEmpty(run.stdout) ?? `blocked by hook: ${ctx.label}`,
      });
    }
    return verdict({ outcome: "warn", message: exitWarning(run.code, run.signal, run.stderr) });
  },
};
