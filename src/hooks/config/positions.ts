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
 * Returns a function that finds the line/column of a field in a JSON or YAML text (JSON is
 * YAML, so one parser serves both). The text is parsed once, on first use.
 */
export function createLocator(
  text: string,
): (path: FieldPath) => { line: number; column: number } | undefined {
  let doc: ReturnType<typeof parseDocument> | undefined;
  let counter: LineCounter | undefined;
  return (path) => {
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
