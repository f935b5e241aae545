/**
 * The `#!` line of a hook script, checked the way the kernel will use it: a script whose
 * interpreter is missing fails with exit 126/127 before it reads a byte of its payload, which
 * for a guard is the most reported hook failure there is (a gate that never closes, see
 * docs/hooks.md "A guard that cannot start"). Synchronous and small: one 256-byte read.
 */
import { closeSync, openSync, readSync } from "node:fs";

/** The interpreter a script names, and the program `env` is asked to find (`#!/usr/bin/env X`). */
export interface Shebang {
  interpreter: string;
  /** The program `env` looks up on PATH, when the interpreter is env. */
  program?: string;
  /** The line ends in a carriage return: the kernel looks for `bash\r` (CRLF line endings). */
  carriageReturn: boolean;
}

/** The script's first bytes, or null when it cannot be read. */
function head(path: string): string | null {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const buf = Buffer.alloc(256);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString("latin1");
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The `#!` line of the file at `path`, or null when it has none (a binary, a plain file). */
export function readShebang(path: string): Shebang | null {
  const text = head(path);
  if (text === null || !text.startsWith("#!")) return null;
  const end = text.indexOf("\n");
  const line = end === -1 ? text.slice(2) : text.slice(2, end);
  const carriageReturn = line.endsWith("\r");
  const words = line
    .replace(/\r$/, "")
    .trim()
    .split(/[ \t]+/)
    .filter(Boolean);
  const interpreter = words[0];
  if (interpreter === undefined) return null;
  const out: Shebang = { interpreter, carriageReturn };
  if (interpreter.split("/").at(-1) === "env") {
    // `env -S prog args`, `env -i prog`: the first word that is not an option or VAR=value.
    const program = words.slice(1).find((w) => !w.startsWith("-") && !/^[A-Za-z_]\w*=/.test(w));
    if (program !== undefined) out.program = program;
  }
  return out;
}
