/**
 * The prompt's editing model, as pure functions: a text buffer with a cursor, multi-line
 * editing and history navigation. The PromptInput component maps keys onto these.
 */

/** The prompt buffer and its history position. */
export interface EditorState {
  text: string;
  /** Cursor offset in UTF-16 units, 0..text.length. */
  cursor: number;
  /** Earlier prompts, oldest first. */
  history: readonly string[];
  /** Index into history while browsing it, or null when editing the draft. */
  historyIndex: number | null;
  /** The unsent text kept while browsing history. */
  draft: string;
}

/** An empty editor with the given history. */
export function emptyEditor(history: readonly string[] = []): EditorState {
  return { text: "", cursor: 0, history, historyIndex: null, draft: "" };
}

/** Inserts text at the cursor (typed characters or a whole paste). */
export function insert(s: EditorState, chunk: string): EditorState {
  const text = s.text.slice(0, s.cursor) + chunk + s.text.slice(s.cursor);
  return { ...s, text, cursor: s.cursor + chunk.length };
}

/** Deletes the character before the cursor. */
export function backspace(s: EditorState): EditorState {
  if (s.cursor === 0) return s;
  const step = charBefore(s.text, s.cursor);
  return {
    ...s,
    text: s.text.slice(0, s.cursor - step) + s.text.slice(s.cursor),
    cursor: s.cursor - step,
  };
}

/** Deletes the character under the cursor. */
export function deleteForward(s: EditorState): EditorState {
  if (s.cursor >= s.text.length) return s;
  const step = charAt(s.text, s.cursor);
  return { ...s, text: s.text.slice(0, s.cursor) + s.text.slice(s.cursor + step) };
}

function charBefore(text: string, at: number): number {
  const code = text.charCodeAt(at - 1);
  return code >= 0xdc00 && code <= 0xdfff && at >= 2 ? 2 : 1;
}

function charAt(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code >= 0xd800 && code <= 0xdbff ? 2 : 1;
}

/** Moves the cursor one character left or right. */
export function moveHorizontal(s: EditorState, dir: -1 | 1): EditorState {
  if (dir < 0)
    return { ...s, cursor: s.cursor === 0 ? 0 : s.cursor - charBefore(s.text, s.cursor) };
  return {
    ...s,
    cursor: s.cursor >= s.text.length ? s.cursor : s.cursor + charAt(s.text, s.cursor),
  };
}

function lineStart(text: string, at: number): number {
  return text.lastIndexOf("\n", at - 1) + 1;
}

function lineEnd(text: string, at: number): number {
  const i = text.indexOf("\n", at);
  return i < 0 ? text.length : i;
}

/** Moves to the start (Home, Ctrl+A) or end (End, Ctrl+E) of the current line. */
export function moveLineEdge(s: EditorState, edge: "start" | "end"): EditorState {
  return {
    ...s,
    cursor: edge === "start" ? lineStart(s.text, s.cursor) : lineEnd(s.text, s.cursor),
  };
}

/** Ctrl+U: deletes from the line start to the cursor. */
export function killToLineStart(s: EditorState): EditorState {
  const start = lineStart(s.text, s.cursor);
  return { ...s, text: s.text.slice(0, start) + s.text.slice(s.cursor), cursor: start };
}

/** Ctrl+K: deletes from the cursor to the line end. */
export function killToLineEnd(s: EditorState): EditorState {
  const end = lineEnd(s.text, s.cursor);
  const cut = end === s.cursor && end < s.text.length ? end + 1 : end;
  return { ...s, text: s.text.slice(0, s.cursor) + s.text.slice(cut) };
}

/** Ctrl+W / Alt+Backspace: deletes the word before the cursor. */
export function deleteWordBack(s: EditorState): EditorState {
  let i = s.cursor;
  while (i > 0 && /\s/.test(s.text[i - 1] ?? "")) i--;
  while (i > 0 && !/\s/.test(s.text[i - 1] ?? "")) i--;
  return { ...s, text: s.text.slice(0, i) + s.text.slice(s.cursor), cursor: i };
}

/** Alt+B / Alt+F: moves a word left or right. */
export function moveWord(s: EditorState, dir: -1 | 1): EditorState {
  let i = s.cursor;
  if (dir < 0) {
    while (i > 0 && /\s/.test(s.text[i - 1] ?? "")) i--;
    while (i > 0 && !/\s/.test(s.text[i - 1] ?? "")) i--;
  } else {
    while (i < s.text.length && /\s/.test(s.text[i] ?? "")) i++;
    while (i < s.text.length && !/\s/.test(s.text[i] ?? "")) i++;
  }
  return { ...s, cursor: i };
}

/**
 * Up/Down: moves between lines of a multi-line prompt; from the first (last) line it steps
 * back (forward) through history, keeping the unsent draft.
 */
export function moveVertical(s: EditorState, dir: -1 | 1): EditorState {
  const start = lineStart(s.text, s.cursor);
  const column = s.cursor - start;
  if (dir < 0 && start > 0) {
    const prevStart = lineStart(s.text, start - 1);
    return { ...s, cursor: Math.min(prevStart + column, start - 1) };
  }
  const end = lineEnd(s.text, s.cursor);
  if (dir > 0 && end < s.text.length) {
    const nextEnd = lineEnd(s.text, end + 1);
    return { ...s, cursor: Math.min(end + 1 + column, nextEnd) };
  }
  return browseHistory(s, dir);
}

function browseHistory(s: EditorState, dir: -1 | 1): EditorState {
  if (s.history.length === 0) return s;
  if (dir < 0) {
    const index = s.historyIndex === null ? s.history.length - 1 : Math.max(0, s.historyIndex - 1);
    const text = s.history[index] ?? "";
    const draft = s.historyIndex === null ? s.text : s.draft;
    return { ...s, historyIndex: index, text, cursor: text.length, draft };
  }
  if (s.historyIndex === null) return s;
  if (s.historyIndex >= s.history.length - 1) {
    return { ...s, historyIndex: null, text: s.draft, cursor: s.draft.length, draft: "" };
  }
  const index = s.historyIndex + 1;
  const text = s.history[index] ?? "";
  return { ...s, historyIndex: index, text, cursor: text.length };
}

/** Clears the buffer after a submit and records the prompt in history (no adjacent duplicates). */
export function commit(s: EditorState): EditorState {
  const entry = s.text;
  const history =
    entry.trim() === "" || s.history[s.history.length - 1] === entry
      ? s.history
      : [...s.history, entry];
  return emptyEditor(history);
}

/** Replaces the whole buffer (completion), cursor at the end. */
export function replaceText(s: EditorState, text: string): EditorState {
  return { ...s, text, cursor: text.length, historyIndex: null };
}
