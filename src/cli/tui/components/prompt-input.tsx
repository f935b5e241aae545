/**
 * The prompt: a controlled multi-line editor with history, paste and slash completion.
 * Enter submits; Alt+Enter, Ctrl+J, Shift+Enter (where the terminal reports it) or a trailing
 * backslash insert a newline. Ctrl+C and Escape are left to the app.
 */
import { Box, type Key, Text, useInput, usePaste } from "ink";
import { useMemo, useRef, useState } from "react";
import { plural } from "../../format/text.js";
import { bufferRows } from "../buffer-rows.js";
import * as ed from "../editor.js";
import { pastedImageMention } from "../image-paste.js";
import { completeSlash, type DynamicArgs } from "../slash.js";
import { SlashMenu } from "./slash-menu.js";

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

/** Typed or pasted text as it may enter the buffer: newlines normalized, controls dropped. */
export function cleanInput(text: string): string {
  return text
    .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, "")
    .replace(/\r\n?/g, "\n")
    .replace(/\t/g, "  ")
    .replace(/[\x00-\x09\x0b-\x1f\x7f]/g, "");
}

type Edit = (s: ed.EditorState) => ed.EditorState;

const CTRL_KEYS: Record<string, Edit> = {
  a: (s) => ed.moveLineEdge(s, "start"),
  e: (s) => ed.moveLineEdge(s, "end"),
  u: ed.killToLineStart,
  k: ed.killToLineEnd,
  w: ed.deleteWordBack,
  d: ed.deleteForward,
};

/** A key that changes nothing (a Ctrl or Alt key without an action): consumed all the same. */
const NO_EDIT: Edit = (s) => s;

/** The edit a cursor, deletion, Ctrl or Alt key makes; undefined: the key is not one of them. */
function editFor(input: string, key: Key): Edit | undefined {
  if (key.leftArrow || key.rightArrow) {
    const dir = key.leftArrow ? -1 : 1;
    const word = key.meta || key.ctrl;
    return (s) => (word ? ed.moveWord(s, dir) : ed.moveHorizontal(s, dir));
  }
  if (key.home) return (s) => ed.moveLineEdge(s, "start");
  if (key.end) return (s) => ed.moveLineEdge(s, "end");
  if (key.backspace) return (s) => (key.meta ? ed.deleteWordBack(s) : ed.backspace(s));
  if (key.delete) return (s) => ed.deleteForward(s);
  if (key.ctrl) return CTRL_KEYS[input] ?? NO_EDIT;
  if (key.meta) {
    if (input === "b") return (s) => ed.moveWord(s, -1);
    if (input === "f") return (s) => ed.moveWord(s, 1);
    return NO_EDIT;
  }
  return undefined;
}

/**
 * The slash menu's items for the text and its selection. Like the buffer, the selection is read
 * by keys that arrive in the same chunk as the arrow that moved it (Down then Enter): the latest
 * value is kept in a ref. `menuNow` is the menu for the text as it is at that key.
 */
function useSlashMenu(
  text: string,
  latestText: () => string,
  isActive: boolean,
  dynamicArgs: DynamicArgs | undefined,
) {
  const [selected, setSelectedState] = useState(0);
  const selectedRef = useRef(0);
  const setSelected = (update: number | ((i: number) => number)) => {
    selectedRef.current = typeof update === "number" ? update : update(selectedRef.current);
    setSelectedState(selectedRef.current);
  };
  const [dismissedFor, setDismissedFor] = useState<string | null>(null);
  const complete = (t: string) => completeSlash(t, dynamicArgs ? { dynamic: dynamicArgs } : {});
  // biome-ignore lint/correctness/useExhaustiveDependencies: complete reads only dynamicArgs
  const items = useMemo(() => complete(text), [text, dynamicArgs]);
  const open = isActive && items.length > 0 && dismissedFor !== text;
  const menuNow = () => {
    const now = latestText();
    const list = complete(now);
    const isOpen = isActive && list.length > 0 && dismissedFor !== now;
    const pick = isOpen ? list[Math.min(selectedRef.current, list.length - 1)] : undefined;
    return { open: isOpen, list, pick };
  };
  const dismiss = () => setDismissedFor(latestText());
  return { items, open, selected, setSelected, menuNow, dismiss, complete };
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
  const newline = () => change((s) => ed.insert(s, "\n"));

  // Keys typed faster than the terminal delivers them arrive as one chunk ("hello\r"): a single
  // trailing CR is Enter; several line breaks mean an unbracketed paste, kept as text.
  const typed = (input: string) => {
    const breaks = (input.match(/\r\n?|\n/g) ?? []).length;
    if (breaks === 1 && /(?:\r\n?|\n)$/.test(input)) {
      change((s) => ed.insert(s, cleanInput(input.replace(/(?:\r\n?|\n)$/, ""))));
      return enter();
    }
    const clean = cleanInput(input);
    if (clean !== "") change((s) => ed.insert(s, clean));
  };

  const enter = () => {
    const s = latest.current;
    const pick = menu.menuNow().pick;
    // A command that needs an argument ("/resume") completes to "/resume ", which opens the
    // menu of its arguments (the session picker), instead of running without one. With no
    // argument to offer it runs, and says so itself.
    if (pick && !pick.runnable && pick.value !== s.text && menu.complete(pick.value).length > 0) {
      return change((e) => ed.replaceText(e, pick.value));
    }
    if (pick && pick.value.trim() !== s.text.trim()) return submit(pick.value);
    if (s.text.slice(0, s.cursor).endsWith("\\")) {
      return change((e) => ed.insert(ed.backspace(e), "\n"));
    }
    return submit(s.text);
  };

  useInput(
    (input, key) => {
      // The handler sees the latest props at once; Ink's unsubscribe runs a task later.
      if (!isActive || (key.ctrl && input === "c")) return;
      const now = menu.menuNow();
      if (key.escape) {
        if (now.open) menu.dismiss();
        return;
      }
      if (key.return) return key.meta || key.shift ? newline() : enter();
      if (input === "\n") return newline();
      // Shift+Tab belongs to the app (it cycles the permission mode).
      if (key.tab && key.shift) return;
      if (key.tab) {
        const value = now.pick?.value;
        if (value !== undefined) change((s) => ed.replaceText(s, value));
        return;
      }
      if (key.upArrow || key.downArrow) {
        const dir = key.upArrow ? -1 : 1;
        const n = now.list.length;
        if (now.open) return menu.setSelected((i) => (i + dir + n) % n);
        return change((s) => ed.moveVertical(s, dir));
      }
      const edit = editFor(input, key);
      if (edit) return change(edit);
      typed(input);
    },
    { isActive },
  );

  usePaste(
    (text) => {
      if (!isActive) return;
      const clean = cleanInput(text);
      // A dropped or pasted image file's path: an `@path` mention, which attaches the image.
      const insert = pastedImageMention(clean) ?? clean;
      if (insert !== "") change((s) => ed.insert(s, insert));
    },
    { isActive },
  );

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
