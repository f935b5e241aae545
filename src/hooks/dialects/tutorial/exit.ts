/** The `.hooks.json` tutorial exit-code table: 0 continue, 1 block (stderr = reason), 2 inject. */
import { EVENT_SPECS } from "../../events.js";
import {
  blockOrFeedback,
  exitWarning,
  nonEmpty,
  PLAIN_STDOUT_IS_CONTEXT,
  verdict,
  verdictFromOutput,
} from "../../verdict.js";
import type { ExitTable } from "../types.js";

/** The table. */
export const tutorialExitTable: ExitTable = {
  name: "tutorial",
  gating: (event) => EVENT_SPECS[event].gating,
  decide(ctx, run) {
    const { code, parsed } = run;
    const stderr = nonEmpty(run.stderr);
    if (code === 0) {
      if (parsed.kind === "invalid") return verdict({ outcome: "warn", message: parsed.message });
      if (parsed.kind === "json") return verdictFromOutput(ctx, parsed.output);
      const plain = PLAIN_STDOUT_IS_CONTEXT.has(ctx.event) ? nonEmpty(run.stdout) : null;
      return verdict({ additionalContext: plain });
    }
    if (code === 1) return blockOrFeedback(ctx, stderr ?? `blocked by hook: ${ctx.label}`);
    if (code === 2) return verdict({ outcome: "pass", message: stderr, additionalContext: stderr });
    return verdict({ outcome: "warn", message: exitWarning(code, run.signal, run.stderr) });
  },
};
