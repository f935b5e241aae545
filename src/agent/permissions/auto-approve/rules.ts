/**
 * The allowlist: commands that only read, each with the options that would make it write,
 * execute or reach out denied. A command not listed here, or one that uses a denied option,
 * needs a person. (Informed by Codex's safe-command rules; written for Keel.)
 */
import { deniedOption, operands } from "./flags.js";

/** What a rule may need to know beyond the arguments. */
export interface RuleContext {
  /**
   * Deny or ask `Read` rules exist. The sandbox hides the files they cover in the working tree
   * (/dev/null over each), but not the copies in git's history and index: `git show HEAD:.env`
   * printed a file `Read(./.env)` forbids. Commands that print stored contents then need a person.
   */
  readRestricted?: boolean;
}

/** One command's rule: `check` returns why the arguments need a person, or undefined. */
export interface CommandRule {
  /** Unquoted globs and `~` are fine: no option of this command writes or executes. */
  globs?: boolean;
  check?: (args: readonly string[], ctx: RuleContext) => string | undefined;
}

const denied = (
  args: readonly string[],
  deny: { short?: string; long?: readonly string[] },
): string | undefined => {
  const hit = deniedOption(args, deny);
  return hit === undefined ? undefined : `the option ${hit} can write files or run programs`;
};

const PLAIN: CommandRule = { globs: true };

/** find's actions that run programs, delete or write files. */
const FIND_ACTIONS = new Set([
  "-exec",
  "-execdir",
  "-ok",
  "-okdir",
  "-delete",
  "-fls",
  "-fprint",
  "-fprint0",
  "-fprintf",
]);

/** git subcommands that only read, with no per-subcommand extras beyond GIT_DENY. */
const GIT_READ = new Set([
  "status",
  "log",
  "show",
  "diff",
  "blame",
  "ls-files",
  "rev-parse",
  "describe",
  "shortlog",
  "grep",
  "branch",
]);

/** Options any git subcommand may use to write a file or run a program. */
const GIT_DENY = [
  "output",
  "ext-diff",
  "textconv",
  "open-files-in-pager",
  "exec",
  "upload-pack",
  "receive-pack",
  "config-env",
  "exec-path",
  "git-dir",
  "work-tree",
  "paginate",
];

/** Options `git branch` may take while only listing. */
const BRANCH_LIST =
  /^(-a|-r|-v|-vv|--all|--remotes|--list|--verbose|--no-color|--color|--show-current|--merged|--no-merged|--contains|--sort=.*|--format=.*)$/;

/**
 * git subcommands that print what files contain (in a commit, the index or the working tree),
 * from any revision: the sandbox's empty stand-ins for files Read rules bar do not reach them.
 */
const GIT_PRINTS_CONTENTS = new Set(["show", "diff", "blame", "grep"]);

/**
 * Options that make `git log` (and shortlog) print or probe contents: patches (`-p -u --patch
 * -W --function-context --binary --word-diff --color-words --cc -c -m --dd -L`) and the
 * pickaxe (`-S -G`: whether a string ever occurred is an oracle, one guess at a time).
 */
const GIT_LOG_CONTENT = {
  short: "pucmLWSG",
  long: [
    "patch",
    "patch-with-stat",
    "patch-with-raw",
    "unified",
    "function-context",
    "binary",
    "word-diff",
    "word-diff-regex",
    "color-words",
    "cc",
    "dd",
    "diff-merges",
    "remerge-diff",
    "line-range",
    "pickaxe-regex",
    "pickaxe-all",
    "full-diff",
  ],
};

/**
 * While Read rules bar files, the only options `git log`/`shortlog` may take without a person:
 * ones that print commit metadata, names and counts, never contents (a list of what is harmful
 * missed `-U3`; a list of what is harmless cannot miss a new way to print a patch).
 */
const GIT_LOG_HARMLESS =
  /^(--oneline|-\d+|-n\d*|--max-count=\d+|--skip=\d+|--(format|pretty)(=.*)?|--graph|--decorate(=\w+)?|--no-decorate|--all|--branches|--tags|--remotes|--author=.*|--committer=.*|--since=.*|--until=.*|--after=.*|--before=.*|--date=.*|--reverse|--no-merges|--merges|--first-parent|--abbrev-commit|--no-abbrev-commit|--abbrev(=\d+)?|--name-only|--name-status|--stat|--shortstat|--numstat|--no-color|--color(=\w+)?|--no-patch|-s|-e|--email|--summary|--numbered|--)$/;

/** While Read rules bar files, the `git status` options that print no contents (not `-v`). */
const GIT_STATUS_HARMLESS =
  /^(-s|--short|-b|--branch|--porcelain(=v[12])?|--long|-u\w*|--untracked-files(=\w+)?|--ignored(=\w+)?|-z|--show-stash|--ahead-behind|--no-ahead-behind|--no-renames|--renames|--no-color|--color(=\w+)?|--)$/;

/** The first option in `args` the allowlist does not name (a `-n 5` value counts with it). */
function unlistedOption(args: readonly string[], harmless: RegExp): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? "";
    if (a === "--") return undefined;
    if (!a.startsWith("-") || a === "-") continue;
    if (!harmless.test(a)) return a;
    if (a === "-n" && /^\d+$/.test(args[i + 1] ?? "")) i++;
  }
  return undefined;
}

function checkGit(args: readonly string[], ctx: RuleContext): string | undefined {
  let i = 0;
  // Global options: only ones that change nothing. -c, -C, --git-dir… need a person.
  while (args[i] === "--no-pager" || args[i] === "-P" || args[i] === "--no-optional-locks") i++;
  const sub = args[i];
  if (sub === undefined) return "git with no subcommand";
  if (sub.startsWith("-")) return `the git option ${sub} needs a person`;
  if (!GIT_READ.has(sub)) return `git ${sub} is not a read-only subcommand`;
  const rest = args.slice(i + 1);
  if (ctx.readRestricted) {
    const because =
      "while Read deny or ask rules exist: it can print files from git's history, which the sandbox does not hide";
    if (GIT_PRINTS_CONTENTS.has(sub)) return `git ${sub} needs a person ${because}`;
    if (sub === "log" || sub === "shortlog") {
      const hit = deniedOption(rest, GIT_LOG_CONTENT) ?? unlistedOption(rest, GIT_LOG_HARMLESS);
      if (hit !== undefined) return `git ${sub} ${hit} needs a person ${because}`;
    }
    if (sub === "status") {
      // `-v` prints the staged diff: the index's copy of a barred file.
      const hit = unlistedOption(rest, GIT_STATUS_HARMLESS);
      if (hit !== undefined) return `git status ${hit} needs a person ${because}`;
    }
  }
  if (sub === "branch") {
    const bad = rest.find((a) => !BRANCH_LIST.test(a));
    return bad === undefined ? undefined : `git branch ${bad} may change branches`;
  }
  return denied(rest, { short: sub === "grep" ? "O" : "", long: GIT_DENY });
}

function checkSed(args: readonly string[]): string | undefined {
  const [flag, script, ...files] = args;
  if (flag !== "-n" || script === undefined || !/^(\d+|\$)(,(\d+|\$))?p$/.test(script)) {
    return "sed is approved only as sed -n <N>[,<M>]p <files>";
  }
  return files.some((f) => f.startsWith("-")) ? "sed with more options" : undefined;
}

/** Every command Keel runs without asking (sandboxed), by name. */
export const RULES: ReadonlyMap<string, CommandRule> = new Map<string, CommandRule>([
  ...[
    "ls",
    "cat",
    "head",
    "tail",
    "wc",
    "nl",
    "echo",
    "printf",
    "pwd",
    "true",
    "false",
    "test",
    "[",
    "grep",
    "egrep",
    "fgrep",
    "stat",
    "du",
    "df",
    "cmp",
    "diff",
    "comm",
    "basename",
    "dirname",
    "realpath",
    "readlink",
    "md5sum",
    "sha1sum",
    "sha256sum",
    "sha512sum",
    "od",
    "tac",
    "rev",
    "cut",
    "tr",
    "seq",
    "which",
    "uname",
    "whoami",
    "id",
  ].map((name) => [name, PLAIN] as const),
  ["cd", {}],
  ["date", { check: (a) => denied(a, { short: "s", long: ["set"] }) }],
  ["file", { check: (a) => denied(a, { short: "C", long: ["compile"] }) }],
  ["tree", { check: (a) => denied(a, { short: "oR", long: ["output"] }) }],
  [
    "sort",
    {
      check: (a) =>
        denied(a, {
          short: "oT",
          long: ["output", "compress-program", "temporary-directory"],
        }),
    },
  ],
  [
    "uniq",
    {
      // `uniq in out` writes out.
      check: (a) => (operands(a).length > 1 ? "uniq with a second file writes it" : undefined),
    },
  ],
  [
    "find",
    {
      check: (a) => {
        const action = a.find((w) => FIND_ACTIONS.has(w));
        return action === undefined ? undefined : `find ${action} runs programs or writes files`;
      },
    },
  ],
  [
    "rg",
    {
      check: (a) =>
        denied(a, { short: "z", long: ["pre", "pre-glob", "hostname-bin", "search-zip"] }),
    },
  ],
  ["sed", { check: checkSed }],
  ["git", { check: checkGit }],
]);
