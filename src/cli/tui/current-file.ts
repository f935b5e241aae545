/**
 * What a file holds now, for an approval prompt: a write that would replace an existing file
 * must say "overwrite" and show what it replaces, not look like a create. Read synchronously
 * when the prompt is drawn, so the prompt is never shown (and answered) before it knows.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";
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
  let fd: number | undefined;
  try {
    // Opened non-blocking and checked on the descriptor: a FIFO or a device (/dev/zero,
    // /dev/tty), or a file swapped for one, must not block the read and with it the screen.
    fd = openSync(abs, constants.O_RDONLY | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    if (stat.isDirectory()) return { kind: "other", why: "it is a directory" };
    if (!stat.isFile()) return { kind: "other", why: "it is not a regular file" };
    if (stat.size > MAX_BYTES)
      return { kind: "other", why: `${stat.size} bytes, too large to compare` };
    const bytes = readFileSync(fd);
    if (looksBinary(bytes)) return { kind: "other", why: `a binary file of ${bytes.length} bytes` };
    return { kind: "text", text: bytes.toString("utf8") };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "missing" };
    if (code === "EISDIR") return { kind: "other", why: "it is a directory" };
    return { kind: "other", why: `it cannot be read (${code ?? "error"})` };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
