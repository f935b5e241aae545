/**
 * Qwen Code's exit-code table (measured from Qwen Code 0.15, and read in its hookRunner): exit
 * 2 blocks (gating events) or is feedback (observing events); its reason is stderr, or, when
 * stderr is JSON, that JSON's reason (`permissionDecisionReason`, `reason`). At any other exit
 * code JSON decides: stdout's, or stderr's when stdout is empty (Qwen reads
 * `stdout.trim() || stderr.trim()`). Plain stdout on exit 0 is context for the model on
 * SessionStart, UserPromptSubmit and UserPromptExpansion (Qwen Code 0.24; 0.15 showed it to the
 * user only) and shown to the user on other events; exit 1 and other codes warn. additionalContext has `<` and
 * `>` escaped, as Qwen's getAdditionalContext() gives it.
 */
import { stripVTControlCharacters } from "node:util";
import { EVENT_SPECS, type HookEventName } from "../../events.js";
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

/** Events whose plain stdout (exit 0) Qwen Code 0.24 gives the model as context. */
const PLAIN_TEXT_CONTEXT_EVENTS: ReadonlySet<HookEventName> = new Set([
  "SessionStart",
  "UserPromptSubmit",
  "UserPromptExpansion",
]);

/** ANSI sequences and control characters (tabs too) out of one line, as Qwen's
 *  stripAnsiAndControl does. */
function withoutControls(line: string): string {
  return stripVTControlCharacters(line).replace(/[\u0000-\u001f\u007f-\u009f]/g, "");
}

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
    if (code === 0) {
      // Qwen Code 0.24: plain stdout of these events is context for the model (0.15: never),
      // terminal escapes stripped per line, `<` `>` escaped as for JSON context.
      const stdout = nonEmpty(run.stdout);
      if (stdout === null || !PLAIN_TEXT_CONTEXT_EVENTS.has(ctx.event)) return verdict({});
      const context = stdout
        .split("\n")
        .map(withoutControls)
        .join("\n")
        .replace(/</g, "&lt;")
        .replace(/>/g, "&gt;");
      return verdict({ additionalContext: context, contextSource: "stdout" });
    }
    return verdict({ outcome: "warn", message: exitWarning(code, run.signal, run.stderr) });
  },
};
