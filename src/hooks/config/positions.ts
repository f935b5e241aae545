/** Line/column positions for problems in JSON and YAML settings files. */
import { LineCounter, parseDocument } from "yaml";
import { jsonErrorOffset } from "./json-scan.js";

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
  return (path) => {
    json ??= isJson(text);
    if (json) {
      // A missing field is reported at its nearest existing parent.
      for (let n = path.length; n >= 0; n--) {
        const offset = jsonValueOffset(text, path.slice(0, n));
        if (offset !== null) return lineColumnAt(text, offset);
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
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i] ?? "")) i++;
  };
  /** Index just past the string starting at i (its opening quote). */
  const stringEnd = (from: number) => {
    let j = from + 1;
    while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
    return j + 1;
  };
  /** Skips the value at i (any kind), leaving i just past it. */
  const skipValue = () => {
    let depth = 0;
    do {
      const c = text[i];
      if (c === '"') i = stringEnd(i);
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
  };
  ws();
  for (const seg of path) {
    const open = text[i];
    if (typeof seg === "string" && open === "{") {
      i++;
      let found = false;
      for (;;) {
        ws();
        if (text[i] !== '"') return null;
        const end = stringEnd(i);
        const key: unknown = JSON.parse(text.slice(i, end));
        i = end;
        ws();
        i++; // ':'
        ws();
        if (key === seg) {
          found = true;
          break;
        }
        skipValue();
        ws();
        if (text[i] !== ",") return null;
        i++;
      }
      if (!found) return null;
    } else if (typeof seg === "number" && open === "[") {
      i++;
      for (let k = 0; ; k++) {
        ws();
        if (text[i] === "]") return null;
        if (k === seg) break;
        skipValue();
        ws();
        if (text[i] !== ",") return null;
        i++;
      }
    } else {
      return null;
    }
  }
  return i;
}
