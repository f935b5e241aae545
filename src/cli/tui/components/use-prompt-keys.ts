/**
 * The prompt's keys and pastes: Enter submits (or completes a slash command), Alt+Enter, Ctrl+J,
 * Shift+Enter or a trailing backslash insert a newline, arrows move or pick in the menu, Ctrl and
 * Alt keys edit. Ctrl+C, Escape (without a menu) and Shift+Tab are left to the app.
 */
import { type Key, useInput, usePaste } from "ink";
import type { MutableRefObject } from "react";
import * as ed from "../editor.js";
import { pastedImageMention } from "../image-paste.js";
import type { SlashMenuState } from "./use-slash-menu.js";

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

/** Enter on buffer `s`: completes a picked command that needs an argument, runs a picked one,
 *  turns a trailing backslash into a newline, else submits the text. */
function pressEnter(
  s: ed.EditorState,
  menu: SlashMenuState,
  change: (update: Edit) => void,
  submit: (text: string) => void,
): void {
  const pick = menu.menuNow().pick;
  // A command that needs an argument ("/resume") completes to "/resume ", which opens the
  // menu of its arguments (the session picker), instead of running without one. With no
  // argument to offer it runs, and says so itself.
  if (pick && !pick.runnable && pick.value !== s.text && menu.complete(pick.value).length > 0) {
    change((e) => ed.replaceText(e, pick.value));
  } else if (pick && pick.value.trim() !== s.text.trim()) submit(pick.value);
  else if (s.text.slice(0, s.cursor).endsWith("\\")) {
    change((e) => ed.insert(ed.backspace(e), "\n"));
  } else submit(s.text);
}

/**
 * Handles the prompt's keys and pastes while `isActive`. `latest` is the buffer the last edit
 * produced (keys can arrive faster than React re-renders); `change` applies an edit to it.
 */
export function usePromptKeys(opts: {
  isActive: boolean;
  latest: MutableRefObject<ed.EditorState>;
  menu: SlashMenuState;
  change: (update: Edit) => void;
  submit: (text: string) => void;
}) {
  const { isActive, latest, menu, change, submit } = opts;
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

  const enter = () => pressEnter(latest.current, menu, change, submit);

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
}
