/**
 * Parses the JavaScript regex syntax picomatch emits (and jest's testRegex uses) into a tree for
 * linear-regex.ts. Backreferences and the `u`/`v`/`m`/`s`/`y` flags are refused with an error:
 * they are what a linear-time matcher cannot take (backreferences) or what no caller uses.
 */

/** One code unit's test. */
export type CharTest = (code: number) => boolean;

export type RegexNode =
  | { t: "empty" }
  | { t: "char"; test: CharTest }
  | { t: "cat"; items: RegexNode[] }
  | { t: "alt"; items: RegexNode[] }
  | { t: "rep"; item: RegexNode; min: number; max: number }
  | { t: "bol" }
  | { t: "eol" }
  | { t: "word"; negated: boolean }
  | { t: "look"; id: number; ahead: boolean; negated: boolean; item: RegexNode };

/** The tree and its lookarounds, inner ones before the ones holding them. */
export interface ParsedRegex {
  root: RegexNode;
  looks: Extract<RegexNode, { t: "look" }>[];
}

/** Counted repetitions above this are refused (they are copied out). */
const MAX_COUNT = 1000;

const LINE_END = [10, 13, 0x2028, 0x2029];
const SPACES = [
  9, 10, 11, 12, 13, 32, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
];
export const isWordCode: CharTest = (c) =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isDigit: CharTest = (c) => c >= 48 && c <= 57;
const isSpace: CharTest = (c) => SPACES.includes(c) || (c >= 0x2000 && c <= 0x200a);
const not =
  (f: CharTest): CharTest =>
  (c) =>
    !f(c);

/** Parses `source` with `flags`: `i` (ignore case), `s` (`.` takes line ends too), and `g`/`d`,
 *  which do not change whether a text matches. */
export function parseRegex(source: string, flags: string): ParsedRegex {
  for (const f of flags) {
    if (!"gdis".includes(f)) throw new Error(`regex flag "${f}" is not supported`);
  }
  return new Parser(source, flags.includes("i"), flags.includes("s")).parse();
}

class Parser {
  private at = 0;
  private readonly looks: ParsedRegex["looks"] = [];

  constructor(
    private readonly src: string,
    private readonly nocase: boolean,
    private readonly dotAll: boolean,
  ) {}

  parse(): ParsedRegex {
    const root = this.alternation();
    if (this.at < this.src.length) this.fail(`unbalanced ")"`);
    return { root, looks: this.looks };
  }

  private fail(why: string): never {
    throw new Error(`${why} at offset ${this.at} of regex /${this.src}/`);
  }

  private alternation(): RegexNode {
    const items = [this.sequence()];
    while (this.src[this.at] === "|") {
      this.at++;
      items.push(this.sequence());
    }
    return items.length === 1 ? (items[0] as RegexNode) : { t: "alt", items };
  }

  private sequence(): RegexNode {
    const items: RegexNode[] = [];
    while (this.at < this.src.length && this.src[this.at] !== "|" && this.src[this.at] !== ")") {
      items.push(this.quantified(this.atom()));
    }
    if (items.length === 0) return { t: "empty" };
    return items.length === 1 ? (items[0] as RegexNode) : { t: "cat", items };
  }

  private quantified(item: RegexNode): RegexNode {
    const c = this.src[this.at];
    let min: number;
    let max: number;
    if (c === "*" || c === "+" || c === "?") {
      this.at++;
      [min, max] = c === "*" ? [0, Infinity] : c === "+" ? [1, Infinity] : [0, 1];
    } else {
      const m = c === "{" ? /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.at)) : null;
      if (!m) return item;
      this.at += m[0].length;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
      if (max < min) this.fail("numbers out of order in {} quantifier");
      if (min > MAX_COUNT || (max !== Infinity && max > MAX_COUNT)) {
        this.fail(`a counted repetition above ${MAX_COUNT}`);
      }
    }
    if (this.src[this.at] === "?") this.at++; // lazy: the same strings match
    if (item.t === "bol" || item.t === "eol" || item.t === "word" || item.t === "look") {
      return min === 0 ? { t: "empty" } : item;
    }
    return { t: "rep", item, min, max };
  }

  private atom(): RegexNode {
    const c = this.src[this.at++] as string;
    switch (c) {
      case "(":
        return this.group();
      case "[":
        return this.charClass();
      case ".":
        return { t: "char", test: this.dotAll ? () => true : (code) => !LINE_END.includes(code) };
      case "^":
        return { t: "bol" };
      case "$":
        return { t: "eol" };
      case "\\":
        return this.escape();
      case "*":
      case "+":
      case "?":
        return this.fail("nothing to repeat");
      default:
        return this.literal(c.charCodeAt(0));
    }
  }

  private group(): RegexNode {
    const rest = this.src.slice(this.at);
    const look = /^\?(<?)([=!])/.exec(rest);
    if (look) {
      this.at += look[0].length;
      const item = this.closeGroup();
      const node = {
        t: "look" as const,
        id: this.looks.length,
        ahead: look[1] === "",
        negated: look[2] === "!",
        item,
      };
      this.looks.push(node);
      return node;
    }
    const named = /^\?<[A-Za-z_$][\w$]*>/.exec(rest);
    if (named) this.at += named[0].length;
    else if (rest.startsWith("?:")) this.at += 2;
    else if (rest.startsWith("?")) this.fail("unsupported group");
    return this.closeGroup();
  }

  private closeGroup(): RegexNode {
    const item = this.alternation();
    if (this.src[this.at] !== ")") this.fail(`missing ")"`);
    this.at++;
    return item;
  }

  private escape(): RegexNode {
    const c = this.src[this.at] ?? this.fail("\\ at end of pattern");
    if (c === "b" || c === "B") {
      this.at++;
      return { t: "word", negated: c === "B" };
    }
    if (/[1-9]/.test(c)) this.fail("backreferences are not supported");
    if (c === "k" && this.src[this.at + 1] === "<") this.fail("backreferences are not supported");
    const set = this.escapeSet();
    return set ? { t: "char", test: set } : this.literal(this.escapeCode());
  }

  /** `\d \D \w \W \s \S` after the backslash, as a test; undefined for other escapes. */
  private escapeSet(): CharTest | undefined {
    const sets: Record<string, CharTest> = {
      d: isDigit,
      D: not(isDigit),
      w: isWordCode,
      W: not(isWordCode),
      s: isSpace,
      S: not(isSpace),
    };
    const set = sets[this.src[this.at] as string];
    if (set) this.at++;
    return set;
  }

  /** The code unit of a single-character escape after the backslash. */
  private escapeCode(): number {
    const c = this.src[this.at++] as string;
    const simple: Record<string, number> = { n: 10, r: 13, t: 9, v: 11, f: 12, "0": 0 };
    if (c in simple && !(c === "0" && /[0-9]/.test(this.src[this.at] ?? ""))) {
      return simple[c] as number;
    }
    const hex = c === "x" ? 2 : c === "u" ? 4 : 0;
    if (hex > 0) {
      const digits = this.src.slice(this.at, this.at + hex);
      if (new RegExp(`^[0-9a-fA-F]{${hex}}$`).test(digits)) {
        this.at += hex;
        return Number.parseInt(digits, 16);
      }
      return c.charCodeAt(0);
    }
    if (c === "c" || /[0-9]/.test(c)) this.fail(`unsupported escape \\${c}`);
    return c.charCodeAt(0);
  }

  private charClass(): RegexNode {
    const negated = this.src[this.at] === "^";
    if (negated) this.at++;
    const parts: CharTest[] = [];
    while (this.src[this.at] !== "]") {
      if (this.at >= this.src.length) this.fail(`missing "]"`);
      const from = this.classAtom();
      if (typeof from === "function") {
        parts.push(from);
        continue;
      }
      if (
        this.src[this.at] === "-" &&
        this.src[this.at + 1] !== "]" &&
        this.at + 1 < this.src.length
      ) {
        this.at++;
        const to = this.classAtom();
        if (typeof to === "function") this.fail("a class escape ends a range");
        if (to < from) this.fail("range out of order in character class");
        parts.push((code) => code >= from && code <= to);
      } else {
        parts.push((code) => code === from);
      }
    }
    this.at++;
    const inSet = this.folded((code) => parts.some((p) => p(code)));
    return { t: "char", test: negated ? not(inSet) : inSet };
  }

  /** One class member: a code unit, or a test for `\d`-like escapes. */
  private classAtom(): number | CharTest {
    const c = this.src[this.at++] as string;
    if (c !== "\\") return c.charCodeAt(0);
    if (this.src[this.at] === "b") {
      this.at++;
      return 8;
    }
    return this.escapeSet() ?? this.escapeCode();
  }

  private literal(code: number): RegexNode {
    return { t: "char", test: this.folded((c) => c === code) };
  }

  /** With the `i` flag, a test that also takes the other case of the code unit (as V8 does
   *  without the `u` flag: simple case mapping of single units). */
  private folded(test: CharTest): CharTest {
    if (!this.nocase) return test;
    return (c) => {
      if (test(c)) return true;
      const ch = String.fromCharCode(c);
      const lower = ch.toLowerCase();
      const upper = ch.toUpperCase();
      return (
        (lower.length === 1 && test(lower.charCodeAt(0))) ||
        (upper.length === 1 && test(upper.charCodeAt(0)))
      );
    };
  }
}
