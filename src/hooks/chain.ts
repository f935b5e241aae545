/**
 * What one hook of a run that passes its input on (a Gemini sequential group, the tutorial's
 * in-order list) hands to the next. Gemini CLI runs such a group
 * one after another and applies each hook's JSON output to the input of the next (its
 * hookRunner's applyHookOutputToInput, read in the 0.61 bundle): BeforeTool's
 * `hookSpecificOutput.tool_input` is merged into `tool_input`, BeforeAgent's
 * `hookSpecificOutput.additionalContext` is appended to `prompt` after a blank line. Only a run
 * that succeeded with output counts. The aggregate still applies every rewrite in order, which
 * gives the same final input.
 */
import { isRecord } from "../base/index.js";
import type { AggregateItem } from "./aggregate.js";
import type { AnyEventPayload } from "./events.js";

/** The payload the next hook of the group sees after `item` ran on `payload`. */
export function chainedPayload(
  payload: AnyEventPayload,
  item: AggregateItem,
  projectDir: string,
): AnyEventPayload {
  const { verdict, record } = item;
  if (record.exitCode !== 0 || record.outcome === "error" || record.outcome === "timeout") {
    return payload;
  }
  const p = payload as unknown as Record<string, unknown>;
  if (p.hook_event_name === "PreToolUse" && verdict.updatedInput && isRecord(p.tool_input)) {
    const tool = typeof p.tool_name === "string" ? p.tool_name : "";
    const mapped = item.dialect.inputFromDialect(tool, verdict.updatedInput, p.tool_input, {
      projectDir,
    });
    return { ...p, tool_input: { ...p.tool_input, ...mapped } } as unknown as AnyEventPayload;
  }
  if (
    p.hook_event_name === "UserPromptSubmit" &&
    typeof p.prompt === "string" &&
    verdict.contextSource === "json" &&
    verdict.additionalContext
  ) {
    return { ...p, prompt: `${p.prompt}\n\n${verdict.additionalContext}` } as AnyEventPayload;
  }
  return payload;
}
