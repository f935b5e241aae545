/**
 * Qwen Code's exit-code table (measured from Qwen Code 0.15, and read in its hookRunner): exit
 * 2 blocks (gating events) or is feedback (observing events); its reason is stderr, or, when
 * stderr is JSON, that JSON's reason (`permissionDecisionReason`, `reason`). At any other exit
 * code JSON decides: stdout's, or stderr's when stdout is empty (Qwen reads
 * `stdout.trim() || stderr.trim()`). Plain stdout is never context for the model (Qwen shows it
 * to the user as a system message); exit 1 and other codes warn. additionalContext has `<` and
 * `>` escaped, as Qwen's getAdditionalContext() gives it.
 */
import { EVENT_SPECS } from "../../events.js";
import { parseHookOutput } from "../../output.js";
import {
  blockOrFeedback,
  exitWarning,
  nonEmpty,
  verdict,
  verdictFromOutput,
} from "../../verdict.js";
import { escapedContext } from "../shared/gemini-family.js";
import type { ExitTable } from "../types.js";

/** The table. */
export const qwenExitTable: ExitTable = {
  name: "qwen",
  gating: (event) => EVENT_SPECS[event].gating,
  decide(ctx, run) {
    const { code } = run;
    const stderr = nonEmpty(run.stderr);
    if (code === 2) {
      const why = stderr ?? `blocked by hook: ${ctx.label}`;
      const fromStderr = stderr === null ? null : parseHookOutput(stderr);
      // Exit 2 blocks whatever the JSON says (Qwen would let an "allow" on stderr through).
      if (fromStderr?.kind === "json") {
        return verdictFromOutput(ctx, escapedContext(fromStderr.output), { forceBlock: why });
      }
      return blockOrFeedback(ctx, why);
    }
    let parsed = run.parsed;
    if (nonEmpty(run.stdout) === null && stderr !== null) {
      const fromStderr = parseHookOutput(stderr);
      if (fromStderr.kind === "json") parsed = fromStderr;
    }
    if (parsed.kind === "json") return verdictFromOutput(ctx, escapedContext(parsed.output));
    if (parsed.kind === "invalid") {
      const extra = code === 0 ? "" : ` (${exitWarning(code, run.signal, run.stderr)})`;
      return verdict({ outcome: "warn", message: `${parsed.message}${extra}` });
    }
    if (code === 0) return verdict({});
    return verdict({ outcome: "warn", message: exitWarning(code, run.signal, run.stderr) });
  },
};
