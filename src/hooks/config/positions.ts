/** Line/column positions for problems in JSON and YAML settings files. */
import { LineCounter, parseDocument } from "yaml";
import { jsonErrorOffset } from "../../base/index.js";

/** A path into a parsed file: object keys and array indices. */
export type FieldPath = readonly (string | number)[];

/** `["hooks", "PreToolUse", 0, "matcher"]` → `hooks.PreToolUse[0].matcher`. */
export function formatField(path: FieldPath): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else out += out === "" ? seg : `.${seg}`;
  }
  return out;
}

/** 1-based line and column of a character offset. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  const clamped = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < clamped; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: clamped - lineStart + 1 };
}

/** Where a JSON.parse error points (V8 reports a position, or nothing at end of input). */
export function jsonErrorPosition(text: string, err: unknown): { line: number; column: number } {
  const message = err instanceof Error ? err.message : String(err);
  const lc = /\(line (\d+) column (\d+)\)/.exec(message);
  if (lc) return { line: Number(lc[1]), column: Number(lc[2]) };
  const pos = /at position (\d+)/.exec(message);
  return lineColumnAt(text, pos ? Number(pos[1]) : (jsonErrorOffset(text) ?? text.length));
}

/** The JSON.parse message without V8's position suffix (the problem carries line/column). */
export function jsonErrorMessage(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message
    .replace(/\s*in JSON at position \d+.*$/s, "")
    .replace(/\s*\(line \d+ column \d+\)$/, "")
    .replace(/, "[\s\S]*" is not valid JSON$/, "");
}

/**
 * Returns a function that finds the line/column of a field in a JSON or YAML text. JSON is
 * walked directly (jsonValueOffset); other text is parsed once with the YAML parser on first
 * use, which gives JSON the same positions but costs loading it (~10 ms of `keel hooks list`).
 */
export function createLocator(
  text: string,
): (path: FieldPath) => { line: number; column: number } | undefined {
  let json: boolean | undefined;
  let doc: ReturnType<typeof parseDocument> | undefined;
  let counter: LineCounter | undefined;
  let offsets: JsonOffsets | undefined;
  let lines: number[] | undefined;
  return (path) => {
    json ??= isJson(text);
    if (json) {
      offsets ??= jsonOffsets(text);
      lines ??= lineStarts(text);
      // A missing field is reported at its nearest existing parent.
      for (let n = path.length; n >= 0; n--) {
        const offset = offsets(path.slice(0, n));
        if (offset !== null) return lineColumnIn(lines, offset);
      }
      return undefined;
    }
    if (!doc || !counter) {
      counter = new LineCounter();
      doc = parseDocument(text, { lineCounter: counter, uniqueKeys: false });
    }
    // A missing field is reported at its nearest existing parent.
    for (let n = path.length; n >= 0; n--) {
      const node: unknown = doc.getIn(path.slice(0, n), true);
      const range = hasRange(node) ? node.range : undefined;
      if (range) {
        const pos = counter.linePos(range[0]);
        return { line: pos.line, column: pos.col };
      }
    }
    return undefined;
  };
}

function hasRange(node: unknown): node is { range: [number, number, number] } {
  return (
    typeof node === "object" &&
    node !== null &&
    "range" in node &&
    Array.isArray(node.range) &&
    typeof node.range[0] === "number"
  );
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Offset where the value at `path` starts in a valid JSON text, or null when the path does
 * not exist. A key that occurs twice is found at its first occurrence, as the YAML parser
 * finds it. Iterative over the text, recursive only along `path`.
 */
export function jsonValueOffset(text: string, path: FieldPath): number | null {
  let i: number | null = skipWhitespace(text, 0);
  for (const seg of path) {
    i = jsonChildOffset(text, i, seg);
    if (i === null) return null;
  }
  return i;
}

type JsonOffsets = (path: FieldPath) => number | null;

/**
 * jsonValueOffset for many paths of one text: every path prefix found is remembered, and the
 * n-th element of an array is found from the (n-1)-th, so locating every hook of a file reads
 * it about once instead of once per hook.
 */
function jsonOffsets(text: string): JsonOffsets {
  const known = new Map<string, number | null>([["", skipWhitespace(text, 0)]]);
  const keyOf = (path: FieldPath) => path.map((seg) => JSON.stringify(seg)).join(",");
  const offsetOf = (path: FieldPath): number | null => {
    const key = keyOf(path);
    const hit = known.get(key);
    if (hit !== undefined) return hit;
    const seg = path[path.length - 1] as string | number;
    const parent = path.slice(0, -1);
    let found: number | null;
    const previous =
      typeof seg === "number" && seg > 0 ? known.get(keyOf([...parent, seg - 1])) : null;
    if (typeof previous === "number") {
      // The element after a known one: skip that one and its comma.
      const end = skipWhitespace(text, skipValueAt(text, previous));
      found = text[end] === "," ? skipWhitespace(text, end + 1) : null;
      if (found !== null && text[found] === "]") found = null;
    } else {
      const at = offsetOf(parent);
      found = at === null ? null : jsonChildOffset(text, at, seg);
    }
    known.set(key, found);
    return found;
  };
  return offsetOf;
}

function skipWhitespace(text: string, from: number): number {
  let i = from;
  while (i < text.length && WHITESPACE.has(text.charCodeAt(i))) i++;
  return i;
}

const WHITESPACE = new Set([32, 9, 10, 13]);

/** Index just past the string starting at `from` (its opening quote). */
function stringEnd(text: string, from: number): number {
  let j = from + 1;
  while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
  return j + 1;
}

/** Index just past the value (any kind) starting at `from`. */
function skipValueAt(text: string, from: number): number {
  let i = from;
  let depth = 0;
  do {
    const c = text[i];
    if (c === '"') i = stringEnd(text, i);
    else {
      if (c === "{" || c === "[") depth++;
      else if (c === "}" || c === "]") depth--;
      i++;
      // A scalar ends before the next separator or closing bracket.
      if (depth === 0 && c !== "}" && c !== "]") {
        while (i < text.length && !",}] \t\n\r".includes(text[i] ?? "")) i++;
      }
    }
  } while (depth > 0 && i < text.length);
  return i;
}

/** Where the value under `seg` starts, in the object or array starting at `at`; null if none. */
function jsonChildOffset(text: string, at: number, seg: string | number): number | null {
  const open = text[at];
  let i = at + 1;
  if (typeof seg === "string" && open === "{") {
    for (;;) {
      i = skipWhitespace(text, i);
      if (text[i] !== '"') return null;
      const end = stringEnd(text, i);
      const key: unknown = JSON.parse(text.slice(i, end));
      i = skipWhitespace(text, end);
      i = skipWhitespace(text, i + 1); // past ':'
      if (key === seg) return i;
      i = skipWhitespace(text, skipValueAt(text, i));
      if (text[i] !== ",") return null;
      i++;
    }
  }
  if (typeof seg === "number" && open === "[") {
    for (let k = 0; ; k++) {
      i = skipWhitespace(text, i);
      if (text[i] === "]") return null;
      if (k === seg) return i;
      i = skipWhitespace(text, skipValueAt(text, i));
      if (text[i] !== ",") return null;
      i++;
    }
  }
  return null;
}

/** Offsets where each line starts. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/** lineColumnAt with the line starts computed once. */
function lineColumnIn(starts: readonly number[], offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - (starts[lo] ?? 0) + 1 };
}
