/**
 * Gemini CLI's exit-code table: JSON on stdout (or, when stdout is empty, on stderr) decides
 * whatever the exit code (exit 2 with an "allow" runs the tool); without it, 0 allows (plain
 * stdout is not context), 1 is a warning, 2 and above deny (block on gating events, feedback
 * otherwise) with the plain stdout, else stderr, as the reason. additionalContext has `<` and
 * `>` escaped, as Gemini CLI gives it to the model.
 */
import { EVENT_SPECS } from "../../events.js";
import { parseHookOutput } from "../../output.js";
import type { DecideContext, RunVerdict } from "../../verdict.js";
import {
  blockOrFeedback,
  exitWarning,
  nonEmpty,
  verdict,
  verdictFromOutput,
} from "../../verdict.js";
import { escapedContext } from "../shared/gemini-family.js";
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

/**
 * The verdict before the AfterTool rule. Gemini CLI reads `stdout.trim() || stderr.trim()`
 * (its hookRunner, 0.61): JSON there decides at any exit code, so a guard that prints its
 * decision to stderr with empty stdout still denies; plain text on exit 2 and above is the
 * block reason, stdout first.
 */
function decideGemini(ctx: DecideContext, run: ExitFacts): RunVerdict {
  const { code } = run;
  const stdout = nonEmpty(run.stdout);
  const stderr = nonEmpty(run.stderr);
  let parsed = run.parsed;
  if (stdout === null && stderr !== null) {
    // Stderr that is not valid JSON is plain text to Gemini CLI, never an output error.
    const fromStderr = parseHookOutput(stderr);
    if (fromStderr.kind === "json") parsed = fromStderr;
  }
  // Measured (Gemini CLI 0.61): JSON decides even on exit 2 (an "allow" runs the tool).
  if (parsed.kind === "json") return verdictFromOutput(ctx, escapedContext(parsed.output));
  if (code !== null && code >= 2 && code !== 127) {
    return blockOrFeedback(ctx, stdout ?? stderr ?? `blocked by hook: ${ctx.label}`);
  }
  if (parsed.kind === "invalid") return verdict({ outcome: "warn", message: parsed.message });
  // Plain stdout is never context (measured on BeforeAgent and SessionStart, 0.61).
  if (code === 0) return verdict({});
  return verdict({ outcome: "warn", message: exitWarning(code, run.signal, run.stderr) });
}
