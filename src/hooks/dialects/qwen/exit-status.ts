/**
 * Whether Qwen Code 0.24 counts a shell command's exit as a failure (its shell tool's
 * isShellExitError): any exit of 2 or more; exit 1 too, unless the command that sets the exit
 * status — the whole command, or the last stage of a plain pipeline — is `grep`, `rg`, `diff`,
 * `test`, `[` or `[[`, for which 1 means "no match" / "false". A failure fires PostToolUseFailure,
 * the rest PostToolUse. Keel's reading of the command is simpler than Qwen's (it skips
 * `NAME=value` prefixes only, not `sudo`/`env` flags).
 */

const EXIT_ONE_IS_NOT_ERROR = new Set(["grep", "rg", "diff", "test", "[", "[["]);

/** The command's top-level segments and the operators between them (quotes respected). */
function segments(command: string): { parts: string[]; ops: string[] } {
  const parts: string[] = [];
  const ops: string[] = [];
  let current = "";
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i] ?? "";
    if (quote) {
      current += c;
      if (c === "\\" && quote === '"') current += command[++i] ?? "";
      else if (c === quote) quote = null;
      continue;
    }
    if (c === "\\") {
      current += c + (command[++i] ?? "");
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      current += c;
      continue;
    }
    if (c === ";" || c === "\n" || c === "|" || c === "&") {
      const next = command[i + 1];
      let op = c;
      if ((c === "|" || c === "&") && next === c) op = c + c;
      else if (c === "|" && next === "&") op = "|&";
      else if (c === "&" && next === ">") {
        current += c;
        continue;
      }
      i += op.length - 1;
      parts.push(current);
      ops.push(op);
      current = "";
      continue;
    }
    current += c;
  }
  parts.push(current);
  return { parts: parts.map((p) => p.trim()).filter((p) => p !== ""), ops };
}

/** The segment whose exit status the shell reports, or null when Qwen would not pick one. */
function exitStatusSegment(command: string): string | null {
  const { parts, ops } = segments(command);
  if (parts.length === 1) return parts[0] ?? null;
  if (ops.length === 0 || !ops.every((op) => op === "|" || op === "|&")) return null;
  return parts.at(-1) ?? null;
}

/** Whether `exitCode` of `command` is a failure to Qwen Code 0.24. */
export function qwenShellExitIsError(command: string, exitCode: number | null): boolean {
  if (exitCode === null || exitCode === 0) return false;
  if (exitCode >= 2) return true;
  const segment = exitStatusSegment(command);
  if (segment === null) return true;
  const words = segment.split(/\s+/).filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  const executable = words[0];
  if (executable === undefined) return true;
  const name = executable.slice(executable.lastIndexOf("/") + 1);
  return !EXIT_ONE_IS_NOT_ERROR.has(name);
}
