/**
 * Where every CLI command's output goes, and the choke point that makes it terminal-safe: all
 * text written here passes the one sanitizer (src/base/sanitize.ts) as a block of lines, so a
 * control, bidi or zero-width character from a settings file, a server or a hook is shown, never
 * acted on, even where a printer forgot to sanitize a field (printers still sanitize each value
 * as one line, so a newline in it cannot forge a line of output). test/security/sanitizer-sites
 * .test.ts fails when code in src/cli/ writes to the process's streams any other way.
 *
 * Writing a command's output straight to file descriptor 1. `process.stdout` is a stream whose
 * first use loads Node's stream modules (~1.5 ms of a short command's start-up); a CLI command
 * that prints its result and exits needs none of it. Only while bin/keel.js says the stream is
 * not created yet: afterwards (and in-process, in tests) output goes through the stream.
 */
import { writeSync } from "node:fs";
import { sanitize } from "../base/index.js";

/** Set by bin/keel.js until process.stdout is first created. */
const UNOPENED = Symbol.for("keel.stdout.unopened");

/** Writes `text` to stdout, sanitized as prose (newlines, tabs and emoji joiners kept). A reader that went away
 *  (`keel … | head`) ends the process quietly, as bin/keel.js does for process.stdout. */
export function writeStdout(text: string): void {
  writeStyledStdout(sanitize(text, { multiline: true, prose: true }));
}

/** Writes `text` to stderr, sanitized as prose (newlines, tabs and emoji joiners kept). */
export function writeStderr(text: string): void {
  process.stderr.write(sanitize(text, { multiline: true, prose: true }));
}

/**
 * Writes `text` to stdout AS IS: only for escape sequences Keel itself makes (the colours of a
 * rendered guide in `keel docs`, from text that was sanitized before it was styled).
 */
export function writeStyledStdout(text: string): void {
  if ((process as unknown as Record<symbol, unknown>)[UNOPENED] !== true) {
    process.stdout.write(text);
    return;
  }
  let rest = Buffer.from(text, "utf8");
  while (rest.length > 0) {
    let written: number;
    try {
      written = writeSync(1, rest);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "EPIPE") process.exit(process.exitCode ?? 0);
      // A non-blocking pipe that is full (EAGAIN): the stream waits for it to drain, and
      // what follows goes after it, through the stream too.
      if (code === "EAGAIN") {
        (process as unknown as Record<symbol, unknown>)[UNOPENED] = false;
        // bin/keel.js attaches its EPIPE handler when it creates the stream; without it (a
        // stream made elsewhere) a reader that leaves must still end the process quietly.
        if (process.stdout.listenerCount("error") === 0) {
          process.stdout.on("error", (e: NodeJS.ErrnoException) => {
            if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
            throw e;
          });
        }
        process.stdout.write(rest);
        return;
      }
      throw err;
    }
    rest = rest.subarray(written);
  }
}
