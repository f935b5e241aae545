/** One hook run that did something: event, hook command, outcome, duration, reason or warning. */
import { Box, Text } from "ink";
import type { HookRunRecord } from "../../../hooks/types.js";
import { clip, formatDuration, shortenCommand, wordWrap } from "../format.js";
import { sanitize } from "../sanitize.js";

/** Props of {@link HookRow}. */
export interface HookRowProps {
  run: HookRunRecord;
  width: number;
  /** Home directory to shorten paths with (default none). */
  home?: string;
}

const OUTCOME: Record<HookRunRecord["outcome"], { word: string; color: string }> = {
  pass: { word: "ok", color: "green" },
  block: { word: "blocked", color: "red" },
  warn: { word: "warning", color: "yellow" },
  error: { word: "error", color: "red" },
  timeout: { word: "timed out", color: "red" },
  cancelled: { word: "cancelled", color: "gray" },
};

/** A string field of a JSON object, or undefined (a wrong type only loses that field). */
function str(from: unknown, key: string): string | undefined {
  if (typeof from !== "object" || from === null) return undefined;
  const value: unknown = Reflect.get(from, key);
  return typeof value === "string" ? value : undefined;
}

/**
 * A hook's JSON output in words, or null when stdout is not a JSON object. The systemMessage is
 * left out: the agent shows it as a notice of its own.
 */
export function describeHookJson(stdout: string): string | null {
  const text = stdout.trim();
  if (!text.startsWith("{") || !text.endsWith("}")) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  // Read field by field (no zod: this module is part of the TUI's first frame).
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const rawSpecific: unknown = Reflect.get(value, "hookSpecificOutput");
  const specific =
    typeof rawSpecific === "object" && rawSpecific !== null && !Array.isArray(rawSpecific)
      ? {
          permissionDecision: str(rawSpecific, "permissionDecision"),
          permissionDecisionReason: str(rawSpecific, "permissionDecisionReason"),
          additionalContext: str(rawSpecific, "additionalContext"),
          updatedInput: Reflect.get(rawSpecific, "updatedInput"),
        }
      : undefined;
  const out = { additionalContext: str(value, "additionalContext") };
  const parts: string[] = [];
  if (specific?.permissionDecision) {
    const why = specific.permissionDecisionReason;
    parts.push(`decision: ${specific.permissionDecision}${why ? ` (${why})` : ""}`);
  }
  if (specific?.updatedInput !== undefined) parts.push("rewrote the tool input");
  const context = specific?.additionalContext ?? out.additionalContext;
  if (context) parts.push(`context for the model: ${context}`);
  return parts.join("\n");
}

/** What the row explains: the reason, the warning, or the hook's output. */
export function hookRunDetail(run: HookRunRecord): string {
  const fromJson = run.outcome === "pass" ? describeHookJson(run.stdout) : null;
  const candidates = [
    run.message,
    fromJson ?? (run.outcome === "pass" ? run.stdout : run.stderr),
    fromJson === null ? run.stdout : "",
    // A hook that passed but wrote to stderr (a formatter's complaint) still says something.
    run.outcome === "pass" ? run.stderr : "",
  ];
  for (const c of candidates) {
    const text = sanitize(c ?? "").trim();
    if (text !== "") return text;
  }
  return "";
}

/** Renders a hook run as one line plus up to three lines of detail. */
export function HookRow({ run, width, home }: HookRowProps) {
  const outcome = OUTCOME[run.outcome];
  const tail = ` ${outcome.word} ${formatDuration(run.durationMs)}`;
  const head = `  ↳ hook ${run.event} `;
  const cmdWidth = Math.max(8, width - head.length - tail.length - 1);
  const command = clip(shortenCommand(run.command, home ? { home } : {}), cmdWidth);
  const detail = hookRunDetail(run).split("\n").slice(0, 3);
  // After the tool ran, a "block" cannot undo it: the reason goes to the model as feedback.
  const label =
    run.outcome !== "block"
      ? ""
      : run.event.startsWith("PostToolUse")
        ? "to the model: "
        : "reason: ";
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate-end">
        <Text dimColor>{head}</Text>
        <Text>{command}</Text>
        <Text color={outcome.color}>{tail}</Text>
      </Text>
      {detail[0] ? (
        <Box flexDirection="column" paddingLeft={4}>
          {detail.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: detail lines have no identity
            <Text key={i} color={run.outcome === "pass" ? undefined : outcome.color} wrap="wrap">
              {wordWrap(
                `${i === 0 ? label : ""}${clip(line, Math.max(10, (width - 4) * 2))}`,
                width - 4,
              )}
            </Text>
          ))}
        </Box>
      ) : null}
    </Box>
  );
}
