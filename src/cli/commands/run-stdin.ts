/**
 * Text piped into `keel run` (`git diff | keel run "review this"`, `keel run "fix" < log.txt`):
 * added to the prompt, as Claude Code and Reasonix users expect. Only a pipe or a regular file
 * is read — a terminal, /dev/null or a socket a parent process left open is not — and a pipe
 * that stays silent is given up on after a few seconds with a note, so a forgotten open stdin
 * cannot hang a script.
 */
import { fstatSync } from "node:fs";
import { UserError } from "../user-error.js";

/** What was piped in, or null when stdin is not a pipe or file (or nothing came). */
export interface PipedInput {
  text: string | null;
  /** Said on stderr: why nothing was read from a pipe. */
  note?: string;
}

/** The most Keel reads from stdin (a bigger input belongs in a file the model reads). */
export const MAX_STDIN_BYTES = 4 * 1024 * 1024;
/** How long a pipe may stay silent before Keel goes on without it. */
export const STDIN_WAIT_MS = 3000;

/** Whether fd 0 is a pipe or a regular file (the cases a user meant to pipe something in). */
export function stdinIsPiped(fd = 0): boolean {
  try {
    const s = fstatSync(fd);
    return s.isFIFO() || s.isFile();
  } catch {
    return false;
  }
}

/** Reads piped stdin to its end (bounded in size, and in waiting for the first byte). */
export function readPipedInput(
  stream: NodeJS.ReadableStream = process.stdin,
  opts: { waitMs?: number; maxBytes?: number } = {},
): Promise<PipedInput> {
  const waitMs = opts.waitMs ?? STDIN_WAIT_MS;
  const maxBytes = opts.maxBytes ?? MAX_STDIN_BYTES;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: PipedInput | Error) => {
      clearTimeout(timer);
      stream.removeAllListeners("data");
      stream.removeAllListeners("end");
      stream.removeAllListeners("error");
      stream.pause();
      (stream as { destroy?: () => void }).destroy?.();
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const timer = setTimeout(() => {
      finish({
        text: null,
        note: `stdin: nothing arrived in ${waitMs / 1000} s; going on without it (pipe input or use </dev/null)`,
      });
    }, waitMs);
    stream.on("data", (chunk: Buffer | string) => {
      clearTimeout(timer);
      const b = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      size += b.length;
      if (size > maxBytes) {
        finish(
          new UserError(
            `stdin: more than ${maxBytes / 1024 / 1024} MiB piped in; save it to a file and name the file in the prompt`,
          ),
        );
        return;
      }
      chunks.push(b);
    });
    stream.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      finish({ text: text.trim() === "" ? null : text });
    });
    stream.on("error", (err: Error) => finish({ text: null, note: `stdin: ${err.message}` }));
  });
}

/** The prompt with piped input after it (or the input alone when no prompt was given). */
export function promptWithInput(prompt: string, input: string | null): string {
  if (input === null) return prompt;
  const body = input.endsWith("\n") ? input : `${input}\n`;
  const block = `<stdin>\n${body}</stdin>`;
  return prompt.trim() === "" ? block : `${prompt}\n\n${block}`;
}
