/**
 * The fail-closed side of Bash deny and ask rules. rules.ts matches a rule against the commands
 * a line runs once known wrappers are peeled (hooks/shell/normalize.ts: `env`, `nice`, `flock`,
 * `timeout`…), but no list of wrappers is complete: `unbuffer rm -rf x`, `find . -exec rm {} ;`,
 * `ssh host 'rm -rf x'`, `$X -rf x`, `echo 'rm -rf x' | xargs sh -c` all run what a
 * `Bash(rm:*)` deny forbids without its program being the command's first word. Where the
 * text shows a denied command somewhere Keel cannot read as "not run", or does not show what
 * runs at all, the rule cannot decide: the call then needs a person (pipeline/policy.ts),
 * never --yes, a mode or a hook's allow.
 */
import { basename } from "node:path";
import { analyzeShell, effectiveArgv, type ShellCommand, shellScripts } from "../../hooks/index.js";

/** How deep scripts inside words (`ssh h 'sh -c "…"'`) are read again. */
const MAX_DEPTH = 3;

/**
 * Programs whose arguments are data, never a command they run: `echo rm`, `git rm x`,
 * `grep 'rm -rf' log` name rm without running it. (A program not listed errs toward asking.)
 */
const DATA_ONLY = new Set([
  "echo",
  "printf",
  "cat",
  "ls",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "git",
  "head",
  "tail",
  "wc",
  "touch",
  "mkdir",
  "rmdir",
  "cp",
  "mv",
  "ln",
  "chmod",
  "stat",
  "file",
  "diff",
  "test",
  "[",
  "true",
  "false",
  "which",
  "type",
  "man",
  "tee",
  "sort",
  "uniq",
  "cut",
  "tr",
  "basename",
  "dirname",
  "realpath",
  "readlink",
  "pwd",
  "cd",
  "printenv",
  "date",
]);

/** Characters that make a word possibly a command line of its own. */
const SCRIPT_LIKE = /[\s;&|`$()<>]/;

/**
 * Why the rule `matches` (a test of one normalized command, rules.ts commandMatcher) may hold
 * for `line` although no command of it matched outright, or null when the line is clear.
 */
export function whyRuleUnsure(line: string, matches: (command: string) => boolean): string | null {
  return unsureIn(line, matches, 0);
}

function unsureIn(
  line: string,
  matches: (command: string) => boolean,
  depth: number,
): string | null {
  const analysis = analyzeShell(line);
  // A line the parser cannot read runs what the shell makes of it, which Keel does not know.
  if (!analysis.parsed) return `the command line cannot be parsed (${analysis.error ?? "unknown"})`;
  for (const command of analysis.commands) {
    const why = unsureCommand(command, matches, depth);
    if (why !== null) return why;
  }
  return null;
}

/** Whether `words` (a command from its program on) is one the rule names. */
function runsDenied(words: readonly string[], matches: (command: string) => boolean): boolean {
  const argv = effectiveArgv(words);
  if (argv.length === 0) return false;
  const line = argv.join(" ");
  if (matches(line)) return true;
  const program = argv[0] ?? "";
  return program.includes("/") && matches([basename(program), ...argv.slice(1)].join(" "));
}

function unsureCommand(
  command: ShellCommand,
  matches: (command: string) => boolean,
  depth: number,
): string | null {
  const raw = command.argv;
  const argv = effectiveArgv(raw);
  if (argv.length === 0) return null;
  const head = raw.length - argv.length;
  // `$X -rf x`, `"$(which rm)" x`, `*/rm x`: the program is whatever the expansion gives.
  if (command.literal[head] === false) {
    return `the program it runs comes from an expansion (${argv[0]})`;
  }
  const split = envSplitString(raw);
  if (split !== null) return split;
  const xargs = xargsBuilds(raw, argv);
  if (xargs !== null) return xargs;
  const shell = shellScripts(argv);
  if (shell !== null && shell.length === 0) {
    return `${basename(argv[0] ?? "")} -c runs a script the line does not show`;
  }
  // `echo 'unbuffer rm -rf x' | sh`, `sh <<EOF`: the script it reads is in the line.
  if (command.stdin !== undefined && depth < MAX_DEPTH && shell === null) {
    const fed = unsureIn(command.stdin, matches, depth + 1);
    if (fed !== null && analyzeShell(command.stdin).parsed) return `its input: ${fed}`;
  }
  if (DATA_ONLY.has(basename(argv[0] ?? ""))) return null;
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i] ?? "";
    // An unknown wrapper (`unbuffer rm …`, `find . -exec rm {} ;`, `sg grp rm …`): the rest
    // of the words, from a denied program on.
    if (runsDenied(argv.slice(i), matches)) {
      return `${basename(argv[0] ?? "")} may run ${argv.slice(i).join(" ")}`;
    }
    // A word that is itself a command line (`ssh h 'rm -rf x'`, `watch 'rm …'`, `su -c '…'`).
    if (depth < MAX_DEPTH && SCRIPT_LIKE.test(word)) {
      const inner = commandsOf(word);
      if (inner.some((c) => runsDenied(c.argv, matches))) {
        return `${basename(argv[0] ?? "")} may run the command line ${JSON.stringify(word)}`;
      }
      const deeper = unsureIn(word, matches, depth + 1);
      // Only what the word shows counts here: a word that does not parse is text, not a script.
      if (deeper !== null && analyzeShell(word).parsed) {
        return `${basename(argv[0] ?? "")} may run the command line ${JSON.stringify(word)}: ${deeper}`;
      }
    }
  }
  return null;
}

function commandsOf(script: string): readonly ShellCommand[] {
  const analysis = analyzeShell(script);
  return analysis.parsed ? analysis.commands : [];
}

/**
 * `env -S 'r\_m …'` / `--split-string`: env splits the value itself, with its own quotes,
 * escapes and `${VAR}` (normalize.ts splits at spaces only). A value with any of those is not
 * read for sure.
 */
function envSplitString(raw: readonly string[]): string | null {
  for (let k = 0; k < raw.length; k++) {
    if (basename(raw[k] ?? "") !== "env") continue;
    for (let i = k + 1; i < raw.length; i++) {
      const w = raw[i] ?? "";
      const value =
        w === "-S" || w === "--split-string"
          ? raw[i + 1]
          : w.startsWith("--split-string=")
            ? w.slice("--split-string=".length)
            : /^-[^-]*S/.test(w)
              ? w.slice(w.indexOf("S") + 1) || raw[i + 1]
              : undefined;
      if (value !== undefined && /[\\'"$#]/.test(value)) {
        return `env -S splits ${JSON.stringify(value)} with quotes, escapes or variables Keel does not read`;
      }
      if (!w.startsWith("-")) break;
    }
  }
  return null;
}

/**
 * xargs builds the command from its input: a shell with no script in the text (`xargs sh -c`)
 * or a replace string (`xargs -I{} sh -c '{}'`) puts that input where the program or a script
 * is read.
 */
function xargsBuilds(raw: readonly string[], argv: readonly string[]): string | null {
  const at = raw.findIndex((w) => basename(w) === "xargs");
  if (at < 0 || at >= raw.length - argv.length) return null;
  const options = raw.slice(at + 1, raw.length - argv.length);
  let replace: string | null = null;
  for (let i = 0; i < options.length; i++) {
    const w = options[i] ?? "";
    if (w === "-I") replace = options[i + 1] ?? "{}";
    else if (w.startsWith("-I")) replace = w.slice(2);
    else if (w === "-i" || w === "--replace") replace = "{}";
    else if (w.startsWith("-i")) replace = w.slice(2);
    else if (w.startsWith("--replace=")) replace = w.slice("--replace=".length);
  }
  if (replace !== null && replace !== "" && argv.some((w) => w.includes(replace))) {
    return `xargs puts its input into the command (${replace})`;
  }
  return null;
}
