/**
 * Programs that run code written in their own arguments or in the text fed to them: `awk
 * 'BEGIN{system("…")}'`, `perl -e`, `python -c`, `vim -c '!…'`, `sed '1e …'`, `git -c
 * alias.x='!…'`. What such code runs is not a shell word Keel can read, so a Bash deny rule or an
 * `if: shell(…)` condition cannot tell whether the line runs what it names (unsure.ts). The list
 * is never complete; a program missing from it is still caught when one of its words names the
 * denied command (unsure.ts mentionsDenied).
 */

/** The basename a program is known by: `python3.11` and `pypy3` are python, `gawk` is awk. */
function family(program: string): string {
  if (/^(python|pypy)[0-9.]*$/.test(program)) return "python";
  if (/^(g|m|n|busybox-)?awk$/.test(program)) return "awk";
  if (/^(vim|vi|nvim|gvim|rvim|view|vimdiff|ex|rview)$/.test(program)) return "vim";
  if (/^(node|nodejs)$/.test(program)) return "node";
  return program;
}

/** Per program: the options that take code as their value (or as the rest of a bundle). */
const INLINE_CODE: Record<string, RegExp> = {
  perl: /^-[A-Za-z]*[eE]/,
  ruby: /^-[A-Za-z]*e/,
  python: /^-[A-Za-z]*c/,
  node: /^(-[A-Za-z]*[ep]|--eval|--print)/,
  bun: /^(-e|--eval|-p|--print)/,
  php: /^-[A-Za-z]*[rRBE]/,
  lua: /^-[A-Za-z]*e/,
  luajit: /^-[A-Za-z]*e/,
  expect: /^-[A-Za-z]*c/,
  Rscript: /^(-e|--expr)/,
  R: /^(-e|--expr)/,
  osascript: /^-e/,
  julia: /^(-e|-E|--eval|--print)/,
  pwsh: /^(-c|-command|-e|-encodedcommand)/i,
  powershell: /^(-c|-command|-e|-encodedcommand)/i,
  gdb: /^(-ex|--ex|-iex|--eval-command|--init-eval-command|-batch|--batch|-x)/,
  guile: /^(-c|-e)$/,
  racket: /^(-e|--eval)/,
  sbcl: /^(--eval|--load)/,
  emacs: /^(--eval|-batch|--batch|-l|--load|-f|--funcall|-x|--script)/,
  vim: /^(-c|--cmd|\+|-S|-s)/,
  groovy: /^-e/,
  scala: /^-e/,
  elixir: /^(-e|--eval)/,
  erl: /^-eval/,
};

/** Programs that read code from their stdin: text the line feeds them is code. */
const STDIN_CODE = new Set([
  "perl",
  "ruby",
  "python",
  "node",
  "bun",
  "php",
  "lua",
  "luajit",
  "tclsh",
  "wish",
  "expect",
  "R",
  "Rscript",
  "osascript",
  "julia",
  "gdb",
  "guile",
  "racket",
  "sbcl",
  "ed",
  "red",
  "vim",
]);

/** Programs whose code is always what they run (`tclsh f.tcl`, `deno eval …`): any use. */
const ALWAYS_CODE = new Set(["tclsh", "wish"]);

/** git's global options that make it run a program (`-c alias.x='!…'`, `-c core.pager=…`). */
const GIT_RUNNING_GLOBALS = /^(-c|--config-env|--exec-path)/;

/**
 * Why `argv` (a command from its program on, wrappers peeled) runs code Keel does not read, or
 * null. `stdin` is text the line feeds it (a here-string, `echo … |`).
 */
export function runsCodeFrom(argv: readonly string[], stdin: string | undefined): string | null {
  const name = family((argv[0] ?? "").replace(/^.*\//, ""));
  if (name === "awk") return awkRunsCommands(argv);
  if (name === "sed") return sedRunsCommands(argv);
  if (name === "git") return gitRunsPrograms(argv);
  if (name === "deno" && argv[1] === "eval") return "deno eval runs code from its arguments";
  if (ALWAYS_CODE.has(name)) return `${name} runs a script Keel does not read`;
  const inline = INLINE_CODE[name];
  const flag = inline ? argv.slice(1).find((w) => inline.test(w)) : undefined;
  if (flag !== undefined) return `${name} ${flag} runs code from its arguments`;
  if (stdin !== undefined && STDIN_CODE.has(name)) return `${name} runs the code fed to it`;
  return null;
}

/** Whether Keel reads the whole of what `argv`'s program runs (awk's program, sed's script):
 *  when runsCodeFrom finds no command in it, its words are code that runs none. */
export function codeReadWhole(argv: readonly string[]): boolean {
  const name = family((argv[0] ?? "").replace(/^.*\//, ""));
  return name === "awk" || name === "sed";
}

/** awk runs commands with `system(…)`, `print | "cmd"` and `"cmd" | getline`. */
function awkRunsCommands(argv: readonly string[]): string | null {
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i] ?? "";
    // -f FILE: the program is a file the line does not show (as `bash file.sh`).
    if (w === "-f" || w === "-v" || w === "-F") {
      i++;
      continue;
    }
    if (/\bsystem\b|\|/.test(w)) return `awk's program ${JSON.stringify(w)} runs commands`;
  }
  return null;
}

/** GNU sed's `e` command and the `e` flag of `s` run a command. */
function sedRunsCommands(argv: readonly string[]): string | null {
  const scripts: string[] = [];
  let explicit = false;
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i] ?? "";
    if (w === "-e" || w === "--expression") {
      scripts.push(argv[++i] ?? "");
      explicit = true;
    } else if (w.startsWith("--expression=")) {
      scripts.push(w.slice("--expression=".length));
      explicit = true;
    } else if (/^-[A-Za-z]*e./.test(w) && !w.startsWith("--")) {
      scripts.push(w.slice(w.indexOf("e") + 1));
      explicit = true;
    } else if (w === "-f" || w === "--file" || w === "-l" || w === "--line-length") i++;
    else if (!w.startsWith("-") && !explicit) {
      scripts.push(w);
      explicit = true;
    }
  }
  const bad = scripts.find(sedScriptRuns);
  return bad === undefined ? null : `sed's script ${JSON.stringify(bad)} may run a command (e)`;
}

/**
 * Whether a sed script holds an `e` command or an `s///e` flag. A small reader of sed's grammar
 * (addresses, `!`, the command letter and what it takes); whatever it cannot read counts as
 * running one.
 */
export function sedScriptRuns(script: string): boolean {
  let i = 0;
  const n = script.length;
  const skipDelimited = (delim: string): boolean => {
    while (i < n && script[i] !== delim) {
      if (script[i] === "\\") i++;
      if (script[i] === "\n" && delim !== "\n") return false;
      i++;
    }
    if (i >= n) return false;
    i++;
    return true;
  };
  const toLineEnd = () => {
    while (i < n && script[i] !== "\n") i++;
  };
  const address = (): boolean => {
    const c = script[i];
    if (c === undefined) return true;
    if (/[0-9$]/.test(c)) {
      while (i < n && /[0-9$~+]/.test(script[i] ?? "")) i++;
      return true;
    }
    if (c === "/") {
      i++;
      return skipDelimited("/");
    }
    if (c === "\\") {
      const d = script[i + 1] ?? "";
      i += 2;
      return skipDelimited(d);
    }
    return true;
  };
  while (i < n) {
    const c = script[i] ?? "";
    if (/[\s;{}]/.test(c)) {
      i++;
      continue;
    }
    if (c === "#") {
      toLineEnd();
      continue;
    }
    if (!address()) return true;
    while (/[IM]/.test(script[i] ?? "")) i++;
    if (script[i] === ",") {
      i++;
      if (!address()) return true;
      while (/[IM]/.test(script[i] ?? "")) i++;
    }
    while (/[\s!]/.test(script[i] ?? "")) i++;
    const cmd = script[i++] ?? "";
    if (cmd === "e") return true;
    if (cmd === "s" || cmd === "y") {
      const delim = script[i++] ?? "";
      if (delim === "" || delim === "\n" || delim === "\\") return true;
      if (!skipDelimited(delim) || !skipDelimited(delim)) return true;
      if (cmd === "s") {
        while (i < n && !/[;\n}]/.test(script[i] ?? "")) {
          const f = script[i] ?? "";
          if (f === "e") return true;
          // The w flag takes a file name to the line's end.
          if (f === "w") toLineEnd();
          else i++;
        }
      }
    } else if ("aicrRwWbtTv:".includes(cmd)) {
      // Text, file names and labels to the line's end (GNU reads `b label; …` up to `;`).
      if ("btT:v".includes(cmd)) while (i < n && !/[;\n]/.test(script[i] ?? "")) i++;
      else toLineEnd();
    } else if (!"=dDgGhHlnNpPqQxzF".includes(cmd) || cmd === "") {
      return true;
    } else if ("qQlL".includes(cmd)) {
      while (i < n && /[\s0-9]/.test(script[i] ?? "") && script[i] !== "\n") i++;
    }
  }
  return false;
}

/** git runs programs named by `-c` settings, by `bisect run`, `rebase -x`, `submodule foreach`… */
function gitRunsPrograms(argv: readonly string[]): string | null {
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i] ?? "";
    if (!w.startsWith("-")) break;
    if (GIT_RUNNING_GLOBALS.test(w)) return `git ${w} can make git run any program`;
  }
  return null;
}

/** git subcommands that run a command given in their arguments (their words are read, as an
 *  unknown program's are, instead of being taken as data). */
export const GIT_COMMAND_RUNNERS = new Set([
  "bisect",
  "rebase",
  "submodule",
  "difftool",
  "mergetool",
  "filter-branch",
  "config",
  "send-email",
  "fetch",
  "pull",
  "clone",
  "push",
  "ls-remote",
  "archive",
  "remote",
]);

/** A glob's pieces: `*`, or the set of characters one position accepts. */
type Piece = "*" | ((c: string) => boolean);

function pieces(glob: string): Piece[] {
  const out: Piece[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] ?? "";
    if (c === "*") out.push("*");
    else if (c === "?") out.push(() => true);
    else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end < 0) {
        out.push((x) => x === "[");
        continue;
      }
      const body = glob.slice(i + 1, end);
      const negated = body.startsWith("!") || body.startsWith("^");
      const set = negated ? body.slice(1) : body;
      const inSet = (x: string) => {
        for (let k = 0; k < set.length; k++) {
          if (set[k + 1] === "-" && k + 2 < set.length) {
            if (x >= (set[k] ?? "") && x <= (set[k + 2] ?? "")) return true;
            k += 2;
          } else if (set[k] === x) return true;
        }
        return false;
      };
      out.push((x) => inSet(x) !== negated);
      i = end;
    } else if (c === "\\" && i + 1 < glob.length) {
      const lit = glob[++i] ?? "";
      out.push((x) => x === lit);
    } else out.push((x) => x === c);
  }
  return out;
}

const PRINTABLE = Array.from({ length: 95 }, (_, k) => String.fromCharCode(32 + k));

/**
 * Whether some name matches both globs (`r?` and `rm`, `*m` and `rm*`): a glob in a word that may
 * be a program could then spell the program a rule names. (Printable ASCII names are tried for
 * two character sets meeting.)
 */
export function globsMeet(a: string, b: string): boolean {
  const [x, y] = [pieces(a), pieces(b)];
  const memo = new Map<number, boolean>();
  const meet = (i: number, j: number): boolean => {
    const key = i * (y.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    memo.set(key, false);
    let ok = false;
    const [p, q] = [x[i], y[j]];
    if (p === undefined && q === undefined) ok = true;
    else if (p === "*" && (meet(i + 1, j) || (q !== undefined && meet(i, j + 1)))) ok = true;
    else if (q === "*" && (meet(i, j + 1) || (p !== undefined && meet(i + 1, j)))) ok = true;
    else if (typeof p === "function" && typeof q === "function") {
      ok = PRINTABLE.some((c) => p(c) && q(c)) && meet(i + 1, j + 1);
    }
    memo.set(key, ok);
    return ok;
  };
  return meet(0, 0);
}
