/** JSONL reading and writing that tolerates a torn last line and never half-writes silently. */
import {
  appendFileSync,
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";

/** Writes all of `text`, looping over short writes. */
export function writeAll(fd: number, text: string): void {
  const buf = Buffer.from(text, "utf8");
  let offset = 0;
  while (offset < buf.length) offset += writeSync(fd, buf, offset, buf.length - offset);
}

/** Appends one JSON line to a shared log (O_APPEND, one write per line), creating folders. */
export function appendJsonLine(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  appendFileSync(path, `${JSON.stringify(value)}\n`, "utf8");
}

/** One non-empty line of a JSONL file, with its 1-based number. */
export interface RawLine {
  lineNo: number;
  text: string;
}

/** The lines of a JSONL file; a last line without its newline is returned as `tail`. */
export function readLines(path: string): { lines: RawLine[]; tail: RawLine | null } {
  if (!existsSync(path)) return { lines: [], tail: null };
  const text = readFileSync(path, "utf8");
  const parts = text.split("\n");
  const last = parts.pop() ?? "";
  const lines: RawLine[] = [];
  parts.forEach((t, i) => {
    if (t.trim() !== "") lines.push({ lineNo: i + 1, text: t });
  });
  const tail = last.trim() === "" ? null : { lineNo: parts.length + 1, text: last };
  return { lines, tail };
}

/** Parses a line, or returns undefined when it is not JSON. */
export function parseLine(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Opens a file for appending. When it does not end with a newline (a crash tore the last line),
 * writes one first, so the fragment stays a line of its own instead of corrupting the next record.
 */
export function openForAppend(path: string): number {
  const fd = openSync(path, "a");
  try {
    const size = fstatSync(fd).size;
    if (size > 0) {
      const last = Buffer.alloc(1);
      const reader = openSync(path, "r");
      try {
        readSync(reader, last, 0, 1, size - 1);
      } finally {
        closeSync(reader);
      }
      if (last[0] !== 0x0a) writeAll(fd, "\n");
    }
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  return fd;
}
