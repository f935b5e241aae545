/**
 * The prompt: a controlled multi-line editor with history, paste and slash completion.
 * Enter submits; Alt+Enter, Ctrl+J, Shift+Enter (where the terminal reports it) or a trailing
 * backslash insert a newline. Ctrl+C and Escape are left to the app.
 */
import { Box, Text } from "ink";
import { useRef } from "react";
import { plural } from "../../format/text.js";
import { bufferRows } from "../buffer-rows.js";
import * as ed from "../editor.js";
import type { DynamicArgs } from "../slash.js";
import { SlashMenu } from "./slash-menu.js";
import { usePromptKeys } from "./use-prompt-keys.js";
import { useSlashMenu } from "./use-slash-menu.js";

/** Props of {@link PromptInput}. */
export interface PromptInputProps {
  editor: ed.EditorState;
  onChange: (next: ed.EditorState) => void;
  /** Called with the submitted text after the buffer was cleared and the text added to history. */
  onSubmit: (text: string) => void;
  width: number;
  isActive?: boolean;
  placeholder?: string;
  /** Runtime completion choices (model names, session ids). */
  dynamicArgs?: DynamicArgs;
  /** Marks the prompt as waiting (a turn is running): text typed now is queued. */
  busy?: boolean;
  /** Rows the buffer may use; a longer one (a big paste) shows a window around the cursor. */
  maxRows?: number;
}

/** The rows of a long buffer shown around the cursor's line: [start, end) of the lines. */
export function visibleLines(
  lineCount: number,
  cursorLine: number,
  maxRows: number,
): { start: number; end: number } {
  if (lineCount <= maxRows) return { start: 0, end: lineCount };
  // Two rows go to the "… more lines" markers.
  const rows = Math.max(1, maxRows - 2);
  const start = Math.min(Math.max(0, cursorLine - Math.floor(rows / 2)), lineCount - rows);
  return { start, end: start + rows };
}

/**
 * Renders the buffer with a block cursor, one Text per screen row (bufferRows), so nothing
 * wraps behind the layout's back; a long buffer (a paste) shows a window around the cursor.
 */
function BufferView({
  editor,
  active,
  busy,
  maxRows,
  width,
}: {
  editor: ed.EditorState;
  active: boolean;
  busy: boolean;
  maxRows: number;
  width: number;
}) {
  const text = editor.text;
  const rows = bufferRows(text, width - 2);
  const cursorRow = Math.max(
    0,
    rows.findIndex(
      (r) =>
        editor.cursor >= r.start && (editor.cursor < r.end || (r.last && editor.cursor === r.end)),
    ),
  );
  const { start: first, end } = visibleLines(rows.length, cursorRow, maxRows);
  return (
    <Box flexDirection="column">
      {first > 0 ? <Text dimColor>{`  … ${plural(first, "more line")} above`}</Text> : null}
      {rows.slice(first, end).map((row, j) => {
        const i = first + j;
        const lead =
          row.line === 0 && row.indent === 0 && row.start === 0 ? (busy ? "… " : "❯ ") : "  ";
        const prefix = lead + " ".repeat(row.indent);
        const body = text.slice(row.start, row.end);
        if (!(active && i === cursorRow)) {
          return (
            <Text key={i} dimColor={!active} wrap="truncate-end">
              <Text color="cyan">{prefix}</Text>
              {body}
            </Text>
          );
        }
        const col = editor.cursor - row.start;
        const under = body.slice(col, col + 1) || " ";
        return (
          <Text key={i} wrap="truncate-end">
            <Text color="cyan">{prefix}</Text>
            {body.slice(0, col)}
            <Text inverse>{under}</Text>
            {body.slice(col + 1)}
          </Text>
        );
      })}
      {end < rows.length ? (
        <Text dimColor>{`  … ${plural(rows.length - end, "more line")} below`}</Text>
      ) : null}
    </Box>
  );
}

/** The prompt line(s) and, while typing "/…", the completion menu. */
export function PromptInput(props: PromptInputProps) {
  const { editor, onChange, onSubmit, width, isActive = true, busy = false } = props;
  // Keys can arrive faster than React re-renders (one stdin chunk holds several events), so
  // edits apply to the latest buffer we produced, not to the possibly stale prop.
  const latest = useRef(editor);
  const seen = useRef(editor);
  if (editor !== seen.current) {
    seen.current = editor;
    latest.current = editor;
  }
  const change = (update: (s: ed.EditorState) => ed.EditorState) => {
    const prev = latest.current;
    const next = update(prev);
    if (next === prev) return;
    if (next.text !== prev.text) menu.setSelected(0);
    latest.current = next;
    onChange(next);
  };
  const menu = useSlashMenu(editor.text, () => latest.current.text, isActive, props.dynamicArgs);
  const submit = (text: string) => {
    menu.setSelected(0);
    change((s) => ed.commit(ed.replaceText(s, text)));
    onSubmit(text);
  };
  usePromptKeys({ isActive, latest, menu, change, submit });

  const showPlaceholder = editor.text === "" && props.placeholder && isActive;
  return (
    <Box flexDirection="column" width={width}>
      {showPlaceholder ? (
        <Text>
          <Text color="cyan">{busy ? "… " : "❯ "}</Text>
          <Text inverse> </Text>
          <Text dimColor>{props.placeholder}</Text>
        </Text>
      ) : (
        <BufferView
          editor={editor}
          active={isActive}
          busy={busy}
          maxRows={props.maxRows ?? 12}
          width={width}
        />
      )}
      {menu.open ? (
        <SlashMenu
          items={menu.items}
          selected={Math.min(menu.selected, menu.items.length - 1)}
          width={width}
        />
      ) : null}
    </Box>
  );
}
