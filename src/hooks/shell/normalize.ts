/**
 * The commands a shell line really runs, written the one way `if: shell(git push*)` expects:
 * wrappers (`env`, `command`, `builtin`, `exec`, `nohup`) and `NAME=value` prefixes dropped,
 * quotes and backslashes removed, words joined by one space, groups, subshells and
 * substitutions opened, and `sh -c '…'` / `eval '…'` read again.
 */
import { analyzeShell, type ShellCommand } from "./parse.js";

/** Options of each wrapper that take a value as the next word. */
const WRAPPERS: Record<string, { valued: Set<string> }> = {
  env: { valued: new Set(["-u", "--unset", "-C", "--chdir", "-S", "--split-string"]) },
  command: { valued: new Set() },
  builtin: { valued: new Set() },
  exec: { valued: new Set(["-a"]) },
  nohup: { valued: new Set() },
};
const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh"]);
const MAX_DEPTH = 4;

/** The argv a simple command runs once wrappers and assignments are peeled off. */
export function effectiveArgv(argv: readonly string[]): string[] {
  let words = [...argv];
  for (;;) {
    const head = words[0];
    const wrapper = head === undefined ? undefined : WRAPPERS[head];
    if (!wrapper) return words;
    let i = 1;
    while (i < words.length) {
      const w = words[i] ?? "";
      if (w === "--") {
        i++;
        break;
      }
      if (head === "env" && /^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) i++;
      else if (w.startsWith("-") && w !== "-") i += wrapper.valued.has(w) ? 2 : 1;
      else if (head === "env" && w === "-") i++;
      else break;
    }
    words = words.slice(i);
  }
}

/** Each command `source` runs, normalized; falls back to `fallback` when it does not parse. */
export function commandsForConditions(
  source: string,
  fallback: (s: string) => string[],
  depth = 0,
): string[] {
  const analysis = analyzeShell(source);
  if (!analysis.parsed) return fallback(source);
  const out: string[] = [];
  for (const command of analysis.commands) out.push(...expand(command, fallback, depth));
  return out;
}

function expand(command: ShellCommand, fallback: (s: string) => string[], depth: number): string[] {
  const argv = effectiveArgv(command.argv);
  if (argv.length === 0) return [];
  const own = argv.join(" ");
  if (depth >= MAX_DEPTH) return [own];
  const [head, flag, script] = argv;
  if (head !== undefined && SHELLS.has(head) && flag === "-c" && script !== undefined) {
    return [own, ...commandsForConditions(script, fallback, depth + 1)];
  }
  if (head === "eval" && argv.length > 1) {
    return [own, ...commandsForConditions(argv.slice(1).join(" "), fallback, depth + 1)];
  }
  return [own];
}
