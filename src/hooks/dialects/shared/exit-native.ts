/**
 * The native exit-code table (Keel, Claude Code, cagent, Qwen Code; http bodies): 0 pass,
 * 2 block (gating events) or feedback (observing events), any other code a warning — and
 * valid JSON on stdout decides whatever the exit code.
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

/** The native table. */
export const nativeExitTable: ExitTable = {
  name: "native",
  gating: (event) => EVENT_SPECS[event].gating,
  decide(ctx, run) {
    const { code, parsed } = run;
    const stderr = nonEmpty(run.stderr);
    const stdout = nonEmpty(run.stdout);
    if (code === 2) {
      const why = stderr ?? `blocked by hook: ${ctx.label}`;
      if (parsed.kind === "json") return verdictFromOutput(ctx, parsed.output, { forceBlock: why });
      return blockOrFeedback(ctx, why);
    }
    if (parsed.kind === "json") return verdictFromOutput(ctx, parsed.output);
    if (parsed.kind === "invalid") {
      const extra = code === 0 ? "" : ` (${exitWarning(code, run.signal, run.stderr)})`;
      return verdict({ outcome: "warn", message: `${parsed.message}${extra}` });
    }
    if (code === 0) {
      const context = PLAIN_STDOUT_IS_CONTEXT.has(ctx.event) ? stdout : null;
      return verdict({ additionalContext: context, contextSource: "stdout" });
    }
    return verdict({ outcome: "warn", message: exitWarning(code, run.signal, run.stderr) });
  },
};
