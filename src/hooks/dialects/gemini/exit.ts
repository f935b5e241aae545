/**
 * Gemini CLI's exit-code table: JSON on stdout decides whatever the exit code (exit 2 with an
 * "allow" runs the tool); without it, 0 allows (plain stdout is not context), 1 is a warning,
 * 2 and above deny (block on gating events, feedback otherwise).
 */
import { EVENT_SPECS } from "../../events.js";
import type { DecideContext, RunVerdict } from "../../verdict.js";
import {
  blockOrFeedback,
  exitWarning,
  nonEmpty,
  verdict,
  verdictFromOutput,
} from "../../verdict.js";
import type { ExitFacts, ExitTable } from "../types.js";

/** The table. */
export const geminiExitTable: ExitTable = {
  name: "gemini",
  gating: (event) => EVENT_SPECS[event].gating,
  decide(ctx, run) {
    const v = decideGemini(ctx, run);
    return ctx.event === "PostToolUse" ? withheldOutput(ctx, v) : v;
  },
};

/**
 * An AfterTool block replaces the tool's result for the model (measured, 0.61: Gemini sends
 * "Tool execution blocked: <reason>" instead of the output); other formats append the reason.
 */
function withheldOutput(ctx: DecideContext, v: RunVerdict): RunVerdict {
  const reason = v.feedback;
  if (reason === undefined) return v;
  const context = v.additionalContext;
  const own =
    context === null || context === reason
      ? null
      : context.endsWith(`\n${reason}`)
        ? context.slice(0, -reason.length - 1)
        : context;
  const { feedback: _, ...rest } = v;
  return {
    ...rest,
    additionalContext: own,
    updatedToolOutput: `Blocked after the tool ran, by hook ${ctx.label}: ${reason}`,
  };
}

/** The verdict before the AfterTool rule. */
function decideGemini(ctx: DecideContext, run: ExitFacts): RunVerdict {
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
}
