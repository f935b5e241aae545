/** JSONL reading and writing that tolerates a torn last line and never half-writes silently. */
import {
  closeSync,
  existsSync,
  fchmodSync,
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

/** Folders Keel creates are private to the user. */
export const PRIVATE_DIR_MODE = 0o700;
/** Files Keel creates are private to the user: logs can hold prompts, commands and paths. */
export const PRIVATE_FILE_MODE = 0o600;

/** Opens `path` for appending, created 0600 (and made 0600 if an older Keel left it readable). */
export function openPrivateForAppend(path: string): number {
  const fd = openSync(path, "a", PRIVATE_FILE_MODE);
  try {
    if ((fstatSync(fd).mode & 0o077) !== 0) fchmodSync(fd, PRIVATE_FILE_MODE);
  } catch {
    // Not ours to chmod (another owner): appending still works, and is not worse than before.
  }
  return fd;
}

/** Appends one JSON line to a shared log (O_APPEND, one write per line), creating folders. */
export function appendJsonLine(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
  const fd = openPrivateForAppend(path);
  try {
    writeAll(fd, `${JSON.stringify(value)}\n`);
  } finally {
    closeSync(fd);
  }
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
  const fd = openPrivateForAppend(path);
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
