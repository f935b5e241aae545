/**
 * Qwen Code's exit-code table (measured from Qwen Code 0.15): exit 2 blocks (gating events) or
 * is feedback (observing events) with stderr as the reason, and stdout JSON is not read then;
 * at any other exit code JSON on stdout decides; plain stdout is never context for the model
 * (Qwen shows it to the user as a system message); exit 1 and other codes warn.
 */
import { EVENT_SPECS } from "../../events.js";
import {
  blockOrFeedback,
  exitWarning,
  nonEmpty,
  verdict,
  verdictFromOutput,
} from "../../verdict.js";
import type { ExitTable } from "../types.js";

/** The table. */
export const qwenExitTable: ExitTable = {
  name: "qwen",
  gating: (event) => EVENT_SPECS[event].gating,
  decide(ctx, run) {
    const { code, parsed } = run;
    if (code === 2)
      return blockOrFeedback(ctx, nonEmpty(run.stderr) ?? `blocked by hook: ${ctx.label}`);
    if (parsed.kind === "json") return verdictFromOutput(ctx, parsed.output);
    if (parsed.kind === "invalid") {
      const extra = code === 0 ? "" : ` (${exitWarning(code, run.signal, run.stderr)})`;
      return verdict({ outcome: "warn", message: `${parsed.message}${extra}` });
    }
    if (code === 0) return verdict({});
    return verdict({ outcome: "warn", message: exitWarning(code, run.signal, run.stderr) });
  },
};
