/**
 * Codex's exit-code table and output rules (read in codex-rs/hooks, measured on codex 0.171 by
 * `npm run compat:codex`):
 * - exit 0: stdout JSON is the hook's answer; plain stdout is context only on SessionStart
 *   and UserPromptSubmit; JSON Codex does not accept (see `unsupportedOutput`) is a failed
 *   hook that changes nothing;
 * - exit 2: blocks with stderr as the reason (feedback for the model after a tool); JSON on
 *   stdout is ignored. (Codex takes an exit 2 with empty stderr as a failed hook; Keel blocks);
 * - any other exit, a crash, a timeout: a failed hook, the action goes on (JSON not read).
 */
import { EVENT_SPECS, type HookEventName } from "../../events.js";
import type { HookOutput } from "../../output.js";
import {
  blockOrFeedback,
  exitWarning,
  nonEmpty,
  PLAIN_STDOUT_IS_CONTEXT,
  verdict,
  verdictFromOutput,
} from "../../verdict.js";
import type { ExitTable } from "../types.js";

/**
 * Why Codex refuses an output (its output parser's rules), or null when it takes it. A refused
 * output changes nothing: the tool runs, the prompt goes on.
 */
export function unsupportedOutput(event: HookEventName, out: HookOutput): string | null {
  const hso = out.hookSpecificOutput ?? undefined;
  if (event === "PreToolUse" || event === "PermissionRequest") {
    if (out.continue === false) return `${event} hook returned unsupported continue:false`;
    if (out.stopReason != null) return `${event} hook returned unsupported stopReason`;
    if (out.suppressOutput) return `${event} hook returned unsupported suppressOutput`;
  }
  if (event === "PostToolUse" && out.suppressOutput) {
    return "PostToolUse hook returned unsupported suppressOutput";
  }
  if (event === "PreToolUse") {
    const pd = hso?.permissionDecision;
    const usesHookSpecific =
      pd != null || hso?.permissionDecisionReason != null || hso?.updatedInput != null;
    if (usesHookSpecific) {
      if (hso?.updatedInput != null && pd !== "allow") {
        return "PreToolUse hook returned updatedInput without permissionDecision:allow";
      }
      if (pd === "allow" && hso?.updatedInput == null) {
        return "PreToolUse hook returned unsupported permissionDecision:allow";
      }
      if (pd === "ask" || pd === "defer") {
        return `PreToolUse hook returned unsupported permissionDecision:${pd}`;
      }
      if (pd === "deny" && nonEmpty(hso?.permissionDecisionReason) === null) {
        return "PreToolUse hook returned permissionDecision:deny without a non-empty permissionDecisionReason";
      }
      if (pd == null) {
        return "PreToolUse hook returned permissionDecisionReason without permissionDecision";
      }
      return null;
    }
    if (out.decision === "approve" || out.decision === "allow") {
      return `PreToolUse hook returned unsupported decision:${out.decision}`;
    }
    if (out.decision == null && out.reason != null) {
      return "PreToolUse hook returned reason without decision";
    }
  }
  if (out.decision === "block" && nonEmpty(out.reason) === null) {
    return `${event} hook returned decision:block without a non-empty reason`;
  }
  if (
    event === "PostToolUse" &&
    out.decision == null &&
    out.continue !== false &&
    out.reason != null
  ) {
    return "PostToolUse hook returned reason without decision";
  }
  if (event === "PermissionRequest") {
    const d = hso?.decision;
    if (d?.updatedInput != null) return "PermissionRequest hook returned unsupported updatedInput";
  }
  return null;
}

/** Events whose hookSpecificOutput.additionalContext Codex gives the model. */
const CONTEXT_EVENTS: ReadonlySet<HookEventName> = new Set([
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
]);

/**
 * Only the fields Codex reads from an accepted output: a PreToolUse "allow" is no permission
 * in Codex (it only carries updatedInput; Codex's own approval still applies), so it is
 * dropped; top-level `updatedInput`/`additionalContext` (other agents' spellings),
 * `updatedToolOutput` and Claude's newer fields are not read by Codex, so not by Keel either.
 */
export function codexFields(event: HookEventName, out: HookOutput): HookOutput {
  const hso = out.hookSpecificOutput ?? undefined;
  const kept: NonNullable<HookOutput["hookSpecificOutput"]> = {};
  if (hso?.additionalContext != null && CONTEXT_EVENTS.has(event)) {
    kept.additionalContext = hso.additionalContext;
  }
  if (event === "PreToolUse") {
    if (hso?.permissionDecision === "deny") {
      kept.permissionDecision = "deny";
      kept.permissionDecisionReason = hso.permissionDecisionReason ?? null;
    }
    if (hso?.permissionDecision === "allow" && hso.updatedInput != null) {
      kept.updatedInput = hso.updatedInput;
    }
  }
  if (event === "PermissionRequest" && hso?.decision != null) {
    const { behavior, message } = hso.decision;
    if (behavior === "allow" || behavior === "deny") {
      kept.decision = { behavior, message: message ?? null };
    }
  }
  const result: HookOutput = {
    continue: out.continue ?? null,
    stopReason: out.stopReason ?? null,
    systemMessage: out.systemMessage ?? null,
    hookSpecificOutput: kept,
  };
  if (out.decision === "block") {
    result.decision = "block";
    result.reason = out.reason ?? null;
  }
  return result;
}

/** The table. */
export const codexExitTable: ExitTable = {
  name: "codex",
  gating: (event) => EVENT_SPECS[event].gating,
  decide(ctx, run) {
    const { code } = run;
    if (code === 2) {
      // Codex takes an exit 2 with empty stderr as a failed hook and goes on; Keel blocks, as
      // for every format it reads (docs/hooks.md "Where Keel deliberately differs").
      return blockOrFeedback(ctx, nonEmpty(run.stderr) ?? `blocked by hook: ${ctx.label}`);
    }
    if (code !== 0)
      return verdict({ outcome: "warn", message: exitWarning(code, run.signal, run.stderr) });
    const parsed = run.parsed;
    if (parsed.kind === "invalid") {
      return verdict({
        outcome: "warn",
        message: `hook returned invalid JSON output: ${parsed.message}`,
      });
    }
    if (parsed.kind === "json") {
      const refused = unsupportedOutput(ctx.event, parsed.output);
      if (refused !== null) return verdict({ outcome: "warn", message: refused });
      return verdictFromOutput(ctx, codexFields(ctx.event, parsed.output));
    }
    const stdout = nonEmpty(run.stdout);
    const context = PLAIN_STDOUT_IS_CONTEXT.has(ctx.event) ? stdout : null;
    return verdict({ additionalContext: context, contextSource: "stdout" });
  },
};
