/**
 * What a file holds now, for an approval prompt: a write that would replace an existing file
 * must say "overwrite" and show what it replaces, not look like a create. Read synchronously
 * when the prompt is drawn, so the prompt is never shown (and answered) before it knows.
 */
import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { looksBinary } from "../../tools/file-operations.js";

/** The file's current state. */
export type CurrentFile =
  | { kind: "missing" }
  | { kind: "text"; text: string }
  /** It exists but its content is not shown: `why` says so (binary, too large, unreadable). */
  | { kind: "other"; why: string };

/** Files larger than this are not read for a diff. */
const MAX_BYTES = 1024 * 1024;

/** Reads `path` (relative to `projectDir`, as the file tools resolve it). Never throws. */
export function readCurrentFile(projectDir: string, path: string): CurrentFile {
  const abs = resolve(projectDir, path);
  try {
    const stat = statSync(abs);
    if (stat.isDirectory()) return { kind: "other", why: "it is a directory" };
    if (stat.size > MAX_BYTES)
      return { kind: "other", why: `${stat.size} bytes, too large to compare` };
    const bytes = readFileSync(abs);
    if (looksBinary(bytes)) return { kind: "other", why: `a binary file of ${bytes.length} bytes` };
    return { kind: "text", text: bytes.toString("utf8") };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "missing" };
    return { kind: "other", why: `it cannot be read (${code ?? "error"})` };
  }
}
