/** Running the real `keel` CLI in-process with its stdout and stderr captured. */
import { vi } from "vitest";
import { main } from "../../src/cli/main.js";

/** What one CLI invocation produced. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Calls `run` with process.stdout/stderr writes captured. process.exitCode starts unset and is
 * put back afterwards, so one failing command cannot make the test file's process fail.
 */
export async function captureOutput(run: () => Promise<number>): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk: unknown) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk: unknown) => {
    stderr += String(chunk);
    return true;
  });
  const exitBefore = process.exitCode;
  process.exitCode = undefined;
  try {
    const code = await run();
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
    process.exitCode = exitBefore;
  }
}

/** Runs `keel <args>` in-process against the current process.env and captures its output. */
export function keel(args: string[]): Promise<CliResult> {
  return captureOutput(() => main(args));
}
