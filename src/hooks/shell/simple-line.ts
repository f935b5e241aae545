/**
 * The plainest command lines read without mvdan-sh: one simple command of plain and
 * single-quoted words, with `>`, `>>` or `<` redirections to such words (`echo 1 >> 'log'`,
 * `./scripts/check.sh --fast`). Loading mvdan-sh (1.5 MB of JavaScript) and parsing with it
 * costs far more CPU than such a line's hook run; trust hashing reads every project hook's
 * command at `keel run` start-up (executed-files.ts), so lines like these paid it for nothing.
 *
 * Anything outside that subset returns undefined and goes to the real parser (parse.ts). The
 * subset is chosen so that bash and POSIX sh read it the same way, and parse.ts's reading of
 * it is what mvdan-sh's would be: test/hooks/shell/simple-line.test.ts compares the two on
 * generated lines. A leaf module: it imports nothing.
 */

/** One redirection as written: its operator and its target word after quote removal. */
export interface SimpleRedirect {
  op: ">" | ">>" | "<";
  target: string;
}

/** A line of the subset: its words after quote removal, and its redirections in order. */
export interface SimpleLine {
  argv: string[];
  redirects: SimpleRedirect[];
}

/**
 * Characters an unquoted word may hold: none is special to bash or sh anywhere in a word (no
 * quote, expansion, glob, tilde, comment, brace, assignment `=`, operator or extglob `(`).
 */
const PLAIN = /[A-Za-z0-9_./,:@%+-]/;

/**
 * Words the parser reads as something other than a plain command word in some position
 * (reserved words, and the declaration builtins mvdan-sh parses as DeclClause/LetClause).
 * A line holding one as a whole plain word goes to the real parser.
 */
const SPECIAL_WORDS = new Set([
  "case",
  "coproc",
  "do",
  "done",
  "elif",
  "else",
  "esac",
  "fi",
  "for",
  "function",
  "if",
  "in",
  "select",
  "then",
  "time",
  "until",
  "while",
  "declare",
  "local",
  "export",
  "readonly",
  "typeset",
  "nameref",
  "let",
]);

const isBlank = (c: string | undefined): boolean => c === " " || c === "\t";

/** Whether `c` may sit between single quotes here: not the quote, a NUL or half a UTF-16
 *  surrogate pair (which mvdan-sh's Go strings would not hand back unchanged). */
function quotable(code: number): boolean {
  return code !== 39 && code !== 0 && (code < 0xd800 || code > 0xdfff);
}

/** Reads a word at `i`: its value and where it ends, or undefined when none starts there or it
 *  leaves the subset. */
function readWord(source: string, start: number): { value: string; end: number } | undefined {
  let i = start;
  let value = "";
  let plainOnly = true;
  for (;;) {
    const c = source[i];
    if (c === "'") {
      const close = source.indexOf("'", i + 1);
      if (close < 0) return undefined;
      for (let k = i + 1; k < close; k++) if (!quotable(source.charCodeAt(k))) return undefined;
      value += source.slice(i + 1, close);
      plainOnly = false;
      i = close + 1;
    } else if (c !== undefined && PLAIN.test(c)) {
      value += c;
      i++;
    } else break;
  }
  if (i === start) return undefined;
  if (plainOnly && SPECIAL_WORDS.has(value)) return undefined;
  return { value, end: i };
}

/** The line when it is in the subset, else undefined (the real parser reads it). */
export function readSimpleLine(source: string): SimpleLine | undefined {
  const argv: string[] = [];
  const redirects: SimpleRedirect[] = [];
  let i = 0;
  for (;;) {
    while (isBlank(source[i])) i++;
    if (i >= source.length) break;
    // Items are separated by blanks: `a>b` or `2>x` glued to a word goes to the real parser
    // (a leading file descriptor number is read by the shell, not as a word).
    if (i > 0 && !isBlank(source[i - 1])) return undefined;
    const c = source[i];
    if (c === ">" || c === "<") {
      let op: SimpleRedirect["op"] = c;
      i++;
      if (c === ">" && source[i] === ">") {
        op = ">>";
        i++;
      }
      while (isBlank(source[i])) i++;
      const target = readWord(source, i);
      if (target === undefined) return undefined;
      redirects.push({ op, target: target.value });
      i = target.end;
      continue;
    }
    const word = readWord(source, i);
    if (word === undefined) return undefined;
    argv.push(word.value);
    i = word.end;
  }
  return argv.length === 0 ? undefined : { argv, redirects };
}
