/**
 * Asks the user to approve one tool call: allow once, allow always for this session, or deny.
 * It shows what the call changes (a diff for edits and overwrites), fitted to the rows it has;
 * what does not fit is counted out loud and `v` shows all of it before the user answers.
 */
import { Box, Text, useInput } from "ink";
import { useMemo, useState } from "react";
import type {
  PermissionAnswer,
  PermissionPrompt as PermissionRequest,
} from "../../../agent/index.js";
import { visibleCommand } from "../../terminal-text.js";
import { callRows, fullRows } from "../call-preview.js";
import { type CurrentFile, readCurrentFile } from "../current-file.js";
import { clip } from "../format.js";
import { sanitizeLine } from "../sanitize.js";
import { ARM_DELAY_MS, useArmed } from "../use-armed.js";
import { CallRowText, CallViewer } from "./call-viewer.js";
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
  /** Where a write's path is read from, to tell a create from an overwrite (absent: not told). */
  projectDir?: string;
}

/** The answers; "allow always" only where the agent remembers it, labelled with what it allows
 *  (the request's `always`, set by the code that keys the answer). */
const choices = (always: string | null): readonly Choice<PermissionAnswer>[] => [
  { value: "allow_once", label: "Allow once", keys: ["y", "1"] },
  ...(always !== null
    ? [{ value: "allow_always" as const, label: visibleCommand(always), keys: ["a", "2"] }]
    : []),
  { value: "deny", label: "Deny", keys: ["n", "3"] },
];

/** The file a write would replace, or undefined when the call is not a write or it is not known. */
function writeTarget(request: PermissionRequest, projectDir?: string): CurrentFile | undefined {
  const { path, content } = request.input;
  if (projectDir === undefined || typeof path !== "string" || typeof content !== "string") {
    return undefined;
  }
  return readCurrentFile(projectDir, path);
}

/** Renders the request and the three answers. */
export function PermissionPrompt({
  request,
  onAnswer,
  width,
  isActive,
  maxCallRows = 12,
  armDelayMs = ARM_DELAY_MS,
  armed: armedFromScreen,
  projectDir,
}: PermissionPromptProps) {
  const armedByTimer = useArmed(armedFromScreen === undefined ? armDelayMs : 0);
  const armed = armedFromScreen ?? armedByTimer;
  const active = armed && isActive !== false;
  const [viewing, setViewing] = useState(false);
  const inner = Math.max(20, width - 4);
  const current = useMemo(() => writeTarget(request, projectDir), [request, projectDir]);
  const rows = callRows(request, inner, maxCallRows, current);
  const more = rows.some((r) => r.more);
  const full = viewing ? fullRows(request, inner, current) : [];
  const answers = useMemo(() => choices(request.always), [request.always]);
  useInput(
    (input) => {
      if (input === "v" && more) setViewing(true);
    },
    { isActive: active && !viewing },
  );
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1} width={width}>
      <Text bold color="yellow" wrap="truncate-end">
        {clip(`Allow ${sanitizeLine(request.toolName)}?`, inner)}
      </Text>
      {viewing ? (
        <CallViewer
          rows={full}
          // The rows the call may use, so the frame stays below the screen's height.
          height={Math.max(2, Math.min(maxCallRows, full.length + 1))}
          onClose={() => setViewing(false)}
          isActive={active}
        />
      ) : (
        rows.map((row, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows of one request
          <CallRowText key={i} row={row} />
        ))
      )}
      {request.reason ? (
        <Text dimColor wrap="truncate-end">
          {clip(sanitizeLine(request.reason), inner)}
        </Text>
      ) : null}
      <ChoiceList
        choices={answers}
        onChoose={onAnswer}
        escapeValue="deny"
        isActive={active && !viewing}
      />
      <Text dimColor wrap="truncate-end">
        {!armed
          ? "(keys typed now are ignored)"
          : viewing
            ? "↑↓ pgup pgdn scroll · v or esc back to the question"
            : `↑↓ choose · enter confirm · esc deny${more ? " · v view all" : ""}`}
      </Text>
    </Box>
  );
}
