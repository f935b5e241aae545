/**
 * Gemini CLI's exit-code table: JSON on stdout is honoured whatever the exit code; without it,
 * 0 allows, 1 is a warning, 2 and above deny (block on gating events, feedback otherwise).
 */
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
export const geminiExitTable: ExitTable = {
  name: "gemini",
  gating: (event) => EVENT_SPECS[event].gating,
  decide(ctx, run) {
    const { code, parsed } = run;
    if (parsed.kind === "json") {
      const why = nonEmpty(run.stderr) ?? `blocked by hook: ${ctx.label}`;
      return code !== null && code >= 2
        ? verdictFromOutput(ctx, parsed.output, { forceBlock: why })
        : verdictFromOutput(ctx, parsed.output);
    }
    if (parsed.kind === "invalid") return verdict({ outcome: "warn", message: parsed.message });
    if (code === 0) {
      const plain = PLAIN_STDOUT_IS_CONTEXT.has(ctx.event) ? nonEmpty(run.stdout) : null;
      return verdict({ additionalContext: plain });
    }
    if (code !== null && code >= 2 && code !== 127) {
      return blockOrFeedback(ctx, nonEmpty(run.stderr) ?? `blocked by hook: ${ctx.label}`);
    }
    return verdict({ outcome: "warn", message: exitWarning(code, run.signal, run.stderr) });
  },
};
