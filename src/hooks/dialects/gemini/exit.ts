/**
 * Gemini CLI's exit-code table: JSON on stdout decides whatever the exit code (exit 2 with an
 * "allow" runs the tool); without it, 0 allows (plain stdout is not context), 1 is a warning,
 * 2 and above deny (block on gating events, feedback otherwise).
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
export const geminiExitTable: ExitTable = {
  name: "gemini",
  gating: (event) => EVENT_SPECS[event].gating,
  decide(ctx, run) {
    const { code, parsed } = run;
    // Measured (Gemini CLI 0.61): JSON on stdout decides even on exit 2 (an "allow" runs the tool).
    if (parsed.kind === "json") return verdictFromOutput(ctx, parsed.output);
    if (parsed.kind === "invalid") return verdict({ outcome: "warn", message: parsed.message });
    // Plain stdout is never context (measured on BeforeAgent and SessionStart, 0.61).
    if (code === 0) return verdict({});
    if (code !== null && code >= 2 && code !== 127) {
      return blockOrFeedback(ctx, nonEmpty(run.stderr) ?? `blocked by hook: ${ctx.label}`);
    }
    return verdict({ outcome: "warn", message: exitWarning(code, run.signal, run.stderr) });
  },
};
