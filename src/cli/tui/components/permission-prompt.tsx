/** Asks the user to approve one tool call: allow once, allow always for this session, or deny. */
import { Box, Text } from "ink";
import type {
  PermissionAnswer,
  PermissionPrompt as PermissionRequest,
} from "../../../agent/events.js";
import { clip } from "../format.js";
import { sanitize, sanitizeLine } from "../sanitize.js";
import { ARM_DELAY_MS, useArmed } from "../use-armed.js";
import { type Choice, ChoiceList } from "./choice-list.js";

/** Props of {@link PermissionPrompt}. */
export interface PermissionPromptProps {
  request: PermissionRequest;
  onAnswer: (answer: PermissionAnswer) => void;
  width: number;
  isActive?: boolean;
  /** Rows the call itself may use before it is cut (default 12, which fits 80×24). */
  maxCallRows?: number;
  /** Keys are ignored this long after the prompt appears (default ARM_DELAY_MS). */
  armDelayMs?: number;
  /** Whether it takes keys yet, when the screen decides (the prompt below takes them until). */
  armed?: boolean;
}

const CHOICES: readonly Choice<PermissionAnswer>[] = [
  { value: "allow_once", label: "Allow once", keys: ["y", "1"] },
  { value: "allow_always", label: "Allow always for this session", keys: ["a", "2"] },
  { value: "deny", label: "Deny", keys: ["n", "3"] },
];

/** One row of the call as shown: plain, or a removed / added line of an edit. */
export interface CallRow {
  text: string;
  tone?: "removed" | "added" | "dim";
}

/** Splits text into rows of at most `width` characters (a long command wraps, never truncates). */
export function wrapRows(text: string, width: number): string[] {
  const rows: string[] = [];
  for (const line of text.split("\n")) {
    const chars = [...line];
    if (chars.length === 0) rows.push("");
    for (let i = 0; i < chars.length; i += width) rows.push(chars.slice(i, i + width).join(""));
  }
  return rows;
}

const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

/**
 * What the user approves, row by row: the whole summary (the full shell command, wrapped), then
 * for writes the start of the content and for edits the replaced and the new text. When the call
 * needs more than `maxRows`, the cut is said out loud.
 */
export function callRows(request: PermissionRequest, width: number, maxRows: number): CallRow[] {
  const rows: CallRow[] = wrapRows(sanitize(request.summary || request.toolName), width).map(
    (text) => ({ text }),
  );
  const input = request.input;
  const content = str(input.content);
  const oldText = str(input.old_string) ?? str(input.search) ?? str(input.old_text);
  const newText = str(input.new_string) ?? str(input.replace) ?? str(input.new_text);
  const detail: CallRow[] = [];
  if (oldText !== null && newText !== null) {
    const side = (text: string, mark: string, tone: "removed" | "added") =>
      sanitize(text)
        .split("\n")
        .slice(0, 4)
        .map((l) => ({ text: clip(`${mark} ${l}`, width), tone }));
    detail.push(...side(oldText, "-", "removed"), ...side(newText, "+", "added"));
  } else if (content !== null) {
    const lines = sanitize(content).replace(/\n$/, "").split("\n");
    detail.push(
      ...lines.slice(0, 4).map((l) => ({ text: clip(`  ${l}`, width), tone: "dim" as const })),
    );
    if (lines.length > 4) detail.push({ text: `  … ${lines.length - 4} more lines`, tone: "dim" });
  }
  const all = [...rows, ...detail];
  if (all.length <= maxRows) return all;
  // The call's own rows come first: a command is never cut to make room for a preview.
  const kept = all.slice(0, Math.max(1, maxRows - 1));
  const hidden = all.length - kept.length;
  return [...kept, { text: `… ${hidden} more rows not shown`, tone: "dim" }];
}

const TONE = {
  removed: { color: "red" },
  added: { color: "green" },
  dim: { dimColor: true },
} as const;

/** Renders the request and the three answers. */
export function PermissionPrompt({
  request,
  onAnswer,
  width,
  isActive,
  maxCallRows = 12,
  armDelayMs = ARM_DELAY_MS,
  armed: armedFromScreen,
}: PermissionPromptProps) {
  const armedByTimer = useArmed(armedFromScreen === undefined ? armDelayMs : 0);
  const armed = armedFromScreen ?? armedByTimer;
  const inner = Math.max(20, width - 4);
  const rows = callRows(request, inner, maxCallRows);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1} width={width}>
      <Text bold color="yellow" wrap="truncate-end">
        {clip(`Allow ${sanitizeLine(request.toolName)}?`, inner)}
      </Text>
      {rows.map((row, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows of one request
        <Text key={i} wrap="truncate-end" {...(row.tone ? TONE[row.tone] : {})}>
          {row.text}
        </Text>
      ))}
      {request.reason ? (
        <Text dimColor wrap="truncate-end">
          {clip(sanitizeLine(request.reason), inner)}
        </Text>
      ) : null}
      <ChoiceList
        choices={CHOICES}
        onChoose={onAnswer}
        escapeValue="deny"
        isActive={armed && isActive !== false}
      />
      <Text dimColor wrap="truncate-end">
        {armed ? "↑↓ choose · enter confirm · esc deny" : "(keys typed now are ignored)"}
      </Text>
    </Box>
  );
}
