/**
 * The commands a shell line really runs, written the one way `if: shell(git push*)` expects:
 * wrappers (`env`, `command`, `builtin`, `exec`, `nohup`, `nice`, `timeout`, `xargs`, `sudo`…)
 * and `NAME=value` prefixes dropped,
 * quotes and backslashes removed, words joined by one space, groups, subshells and
 * substitutions opened, and `sh -c '…'` / `eval '…'` read again.
 */
import { analyzeShell, type ShellCommand } from "./parse.js";

/**
 * Programs that run the rest of their arguments as a command: the options of each that take a
 * value as the next word, and how many operands come before the command (timeout's duration).
 */
const WRAPPERS: Record<string, { valued: Set<string>; operands?: number }> = {
  env: { valued: new Set(["-u", "--unset", "-C", "--chdir"]) },
  command: { valued: new Set() },
  builtin: { valued: new Set() },
  exec: { valued: new Set(["-a"]) },
  nohup: { valued: new Set() },
  nice: { valued: new Set(["-n", "--adjustment"]) },
  timeout: { valued: new Set(["-s", "--signal", "-k", "--kill-after"]), operands: 1 },
  stdbuf: { valued: new Set(["-i", "-o", "-e", "--input", "--output", "--error"]) },
  xargs: {
    valued: new Set(["-a", "-d", "-E", "-e", "-I", "-i", "-L", "-l", "-n", "-P", "-s"]),
  },
  sudo: { valued: new Set(["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T"]) },
  doas: { valued: new Set(["-u", "-C"]) },
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
      else if (head === "env" && (w === "-S" || w === "--split-string" || /^-S./.test(w))) {
        // env -S 'git push': the value is itself a command line, split at spaces.
        const value = w === "-S" || w === "--split-string" ? (words[i + 1] ?? "") : w.slice(2);
        const skip = w === "-S" || w === "--split-string" ? 2 : 1;
        words = [...value.split(/\s+/).filter((x) => x !== ""), ...words.slice(i + skip)];
        i = 0;
        break;
      } else if (w.startsWith("--split-string=")) {
        const value = w.slice("--split-string=".length);
        words = [...value.split(/\s+/).filter((x) => x !== ""), ...words.slice(i + 1)];
        i = 0;
        break;
      } else if (w.startsWith("-") && w !== "-") i += wrapper.valued.has(w) ? 2 : 1;
      else if (head === "env" && w === "-") i++;
      else break;
    }
    i += Math.min(wrapper.operands ?? 0, Math.max(0, words.length - i - 1));
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
