/**
 * A TOML 1.0 reader for Codex's `config.toml`, which holds `[[hooks.<Event>]]` tables among
 * the rest of Codex's settings. Keel has no TOML dependency and reads these files only for
 * their hooks, so this is a small, strict reader of the whole language (every form a real
 * config.toml uses: tables, arrays of tables, dotted and quoted keys, inline tables, the four
 * string forms, integers in every base, floats, booleans; dates are kept as their text).
 * Anything it cannot read is one error with its line and column: the file's hooks are then
 * not read at all, as Codex itself refuses a config.toml it cannot parse.
 */

/** A parse failure, located. */
export class TomlError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${message} at ${line}:${column}`);
  }
}

type Table = Record<string, unknown>;

/** Tables defined by a header or an inline table cannot be extended later (TOML 1.0 §Table). */
const CLOSED = Symbol("closed");
const DEFINED = Symbol("defined");
const ARRAY_OF_TABLES = Symbol("array-of-tables");

interface Marked {
  [CLOSED]?: boolean;
  [DEFINED]?: boolean;
}

/** Parses TOML text into plain objects. Throws TomlError. */
export function parseToml(text: string): Table {
  return new Parser(text.replace(/^\uFEFF/, "")).parse();
}

/** Arrays and inline tables nested deeper than this are refused (as JSON settings are, at the
 *  same depth): each level is a recursive call, and a clone's 200,000-deep array must be a
 *  located error, not a stack overflow (attacks3/07). */
export const MAX_TOML_DEPTH = 64;

class Parser {
  private pos = 0;
  private depth = 0;
  private readonly root: Table = {};
  private current: Table = this.root;

  constructor(private readonly src: string) {}

  parse(): Table {
    while (this.pos < this.src.length) {
      this.skipBlank();
      if (this.pos >= this.src.length) break;
      const c = this.src[this.pos];
      if (c === "[") this.header();
      else this.keyValue(this.current);
      this.endOfLine();
    }
    return this.root;
  }

  private fail(message: string, at = this.pos): never {
    let line = 1;
    let col = 1;
    for (let i = 0; i < at && i < this.src.length; i++) {
      if (this.src[i] === "\n") {
        line++;
        col = 1;
      } else col++;
    }
    throw new TomlError(message, line, col);
  }

  /** Spaces, tabs, newlines and comments. */
  private skipBlank(): void {
    for (;;) {
      this.skipSpaces();
      const c = this.src[this.pos];
      if (c === "#") this.skipComment();
      else if (c === "\n") this.pos++;
      else if (c === "\r" && this.src[this.pos + 1] === "\n") this.pos += 2;
      else return;
    }
  }

  private skipSpaces(): void {
    while (this.src[this.pos] === " " || this.src[this.pos] === "\t") this.pos++;
  }

  private skipComment(): void {
    while (this.pos < this.src.length && this.src[this.pos] !== "\n") this.pos++;
  }

  private endOfLine(): void {
    this.skipSpaces();
    if (this.src[this.pos] === "#") this.skipComment();
    if (this.pos >= this.src.length) return;
    if (this.src[this.pos] === "\n") this.pos++;
    else if (this.src.startsWith("\r\n", this.pos)) this.pos += 2;
    else this.fail("expected the end of the line");
  }

  private header(): void {
    const start = this.pos;
    const isArray = this.src.startsWith("[[", this.pos);
    this.pos += isArray ? 2 : 1;
    this.skipSpaces();
    const keys = this.key();
    this.skipSpaces();
    const close = isArray ? "]]" : "]";
    if (!this.src.startsWith(close, this.pos)) this.fail(`expected "${close}"`);
    this.pos += close.length;
    let table = this.root;
    keys.slice(0, -1).forEach((k) => {
      table = this.descend(table, k, start, true);
    });
    const last = keys[keys.length - 1] as string;
    if (isArray) {
      let list = table[last];
      if (list === undefined) {
        list = Object.assign([], { [ARRAY_OF_TABLES]: true });
        table[last] = list;
      }
      if (!Array.isArray(list) || !(list as { [ARRAY_OF_TABLES]?: boolean })[ARRAY_OF_TABLES]) {
        this.fail(`"${keys.join(".")}" is already defined as something else`, start);
      }
      const entry: Table = {};
      list.push(entry);
      this.current = entry;
      return;
    }
    const existing = table[last];
    if (existing === undefined) {
      const t: Table & Marked = { [DEFINED]: true };
      table[last] = t;
      this.current = t;
      return;
    }
    const t = existing as Table & Marked;
    if (!isTable(existing) || t[DEFINED] || t[CLOSED]) {
      this.fail(`table "${keys.join(".")}" is defined twice`, start);
    }
    t[DEFINED] = true;
    this.current = t;
  }

  /** The table at `key` under `table`, created if missing (an array of tables: its last). */
  private descend(table: Table, key: string, at: number, viaHeader: boolean): Table {
    const v = table[key];
    if (v === undefined) {
      const t: Table = {};
      table[key] = t;
      return t;
    }
    if (Array.isArray(v) && viaHeader && (v as { [ARRAY_OF_TABLES]?: boolean })[ARRAY_OF_TABLES]) {
      return v[v.length - 1] as Table;
    }
    if (!isTable(v) || (v as Marked)[CLOSED])
      this.fail(`"${key}" is not a table it can extend`, at);
    return v;
  }

  private keyValue(table: Table): void {
    const start = this.pos;
    const keys = this.key();
    this.skipSpaces();
    if (this.src[this.pos] !== "=") this.fail('expected "=" after a key');
    this.pos++;
    this.skipSpaces();
    const value = this.value();
    let t = table;
    for (const k of keys.slice(0, -1)) {
      t = this.descend(t, k, start, false);
      if ((t as Marked)[DEFINED] && t !== table) this.fail(`"${k}" is already defined`, start);
    }
    const last = keys[keys.length - 1] as string;
    if (Object.hasOwn(t, last)) this.fail(`key "${keys.join(".")}" is defined twice`, start);
    t[last] = value;
  }

  /** A dotted key: bare or quoted parts. */
  private key(): string[] {
    const parts: string[] = [];
    for (;;) {
      this.skipSpaces();
      const c = this.src[this.pos];
      if (c === '"') parts.push(this.basicString());
      else if (c === "'") parts.push(this.literalString());
      else {
        const m = /^[A-Za-z0-9_-]+/.exec(this.src.slice(this.pos, this.pos + 256));
        if (!m) this.fail("expected a key");
        parts.push(m[0]);
        this.pos += m[0].length;
      }
      this.skipSpaces();
      if (this.src[this.pos] !== ".") return parts;
      this.pos++;
    }
  }

  private value(): unknown {
    const c = this.src[this.pos];
    if (c === '"') {
      return this.src.startsWith('"""', this.pos) ? this.multilineBasic() : this.basicString();
    }
    if (c === "'") {
      return this.src.startsWith("'''", this.pos) ? this.multilineLiteral() : this.literalString();
    }
    if (c === "[" || c === "{") {
      if (this.depth >= MAX_TOML_DEPTH) this.fail(`nested deeper than ${MAX_TOML_DEPTH} levels`);
      this.depth++;
      try {
        return c === "[" ? this.array() : this.inlineTable();
      } finally {
        this.depth--;
      }
    }
    const rest = this.src.slice(this.pos, this.pos + 64);
    for (const [word, v] of [
      ["true", true],
      ["false", false],
    ] as const) {
      if (rest.startsWith(word) && !/[A-Za-z0-9_]/.test(rest[word.length] ?? "")) {
        this.pos += word.length;
        return v;
      }
    }
    return this.scalar();
  }

  /** Numbers and dates. */
  private scalar(): unknown {
    const start = this.pos;
    const m = /^[0-9A-Za-z_:.+-]+(?:[ T][0-9:.]+(?:Z|[+-][0-9:]+)?)?/.exec(
      this.src.slice(this.pos, this.pos + 128),
    );
    if (!m) this.fail("expected a value");
    const raw = m[0];
    this.pos += raw.length;
    if (/^\d{4}-\d{2}-\d{2}/.test(raw) || /^\d{2}:\d{2}/.test(raw)) return raw;
    if (/^[+-]?(inf|nan)$/.test(raw))
      return raw.includes("nan") ? Number.NaN : raw.startsWith("-") ? -Infinity : Infinity;
    const clean = raw.replace(/(?<=[0-9a-fA-F])_(?=[0-9a-fA-F])/g, "");
    if (clean.includes("_")) this.fail(`invalid number "${raw}"`, start);
    if (/^0x[0-9a-fA-F]+$/.test(clean)) return Number.parseInt(clean.slice(2), 16);
    if (/^0o[0-7]+$/.test(clean)) return Number.parseInt(clean.slice(2), 8);
    if (/^0b[01]+$/.test(clean)) return Number.parseInt(clean.slice(2), 2);
    if (/^[+-]?(0|[1-9]\d*)$/.test(clean)) return Number(clean);
    if (/^[+-]?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(clean)) return Number(clean);
    this.fail(`invalid value "${raw}"`, start);
  }

  private array(): unknown[] {
    this.pos++;
    const out: unknown[] = [];
    for (;;) {
      this.skipBlank();
      if (this.src[this.pos] === "]") {
        this.pos++;
        return out;
      }
      out.push(this.value());
      this.skipBlank();
      if (this.src[this.pos] === ",") this.pos++;
      else if (this.src[this.pos] !== "]") this.fail('expected "," or "]" in an array');
    }
  }

  private inlineTable(): Table {
    this.pos++;
    const t: Table & Marked = {};
    this.skipSpaces();
    if (this.src[this.pos] === "}") {
      this.pos++;
      t[CLOSED] = true;
      return t;
    }
    for (;;) {
      this.skipSpaces();
      this.keyValue(t);
      this.skipSpaces();
      const c = this.src[this.pos];
      this.pos++;
      if (c === "}") break;
      if (c !== ",") this.fail('expected "," or "}" in an inline table', this.pos - 1);
    }
    t[CLOSED] = true;
    return t;
  }

  private basicString(): string {
    this.pos++;
    let out = "";
    for (;;) {
      const c = this.src[this.pos];
      if (c === undefined || c === "\n") this.fail("unterminated string");
      this.pos++;
      if (c === '"') return out;
      out += c === "\\" ? this.escape() : c;
    }
  }

  private multilineBasic(): string {
    this.pos += 3;
    if (this.src[this.pos] === "\n") this.pos++;
    else if (this.src.startsWith("\r\n", this.pos)) this.pos += 2;
    let out = "";
    for (;;) {
      if (this.pos >= this.src.length) this.fail('unterminated """ string');
      if (this.src.startsWith('"""', this.pos)) {
        // Up to two quotes may end the content right before the closing delimiter.
        let extra = 0;
        while (extra < 2 && this.src[this.pos + 3 + extra] === '"') extra++;
        out += '"'.repeat(extra);
        this.pos += 3 + extra;
        return out;
      }
      const c = this.src[this.pos++] as string;
      if (c !== "\\") {
        out += c;
        continue;
      }
      // A backslash at the end of a line trims the newline and the blanks after it.
      const after = /^[ \t]*\r?\n[\s]*/.exec(this.src.slice(this.pos));
      if (after) this.pos += after[0].length;
      else out += this.escape();
    }
  }

  private literalString(): string {
    this.pos++;
    const end = this.src.indexOf("'", this.pos);
    const nl = this.src.indexOf("\n", this.pos);
    if (end < 0 || (nl >= 0 && nl < end)) this.fail("unterminated string");
    const out = this.src.slice(this.pos, end);
    this.pos = end + 1;
    return out;
  }

  private multilineLiteral(): string {
    this.pos += 3;
    if (this.src[this.pos] === "\n") this.pos++;
    else if (this.src.startsWith("\r\n", this.pos)) this.pos += 2;
    const end = this.src.indexOf("'''", this.pos);
    if (end < 0) this.fail("unterminated ''' string");
    let extra = 0;
    while (extra < 2 && this.src[end + 3 + extra] === "'") extra++;
    const out = this.src.slice(this.pos, end + extra);
    this.pos = end + 3 + extra;
    return out;
  }

  private escape(): string {
    const c = this.src[this.pos++];
    switch (c) {
      case "b":
        return "\b";
      case "t":
        return "\t";
      case "n":
        return "\n";
      case "f":
        return "\f";
      case "r":
        return "\r";
      case "e":
        return "\x1b";
      case '"':
        return '"';
      case "\\":
        return "\\";
      case "u":
      case "U": {
        const len = c === "u" ? 4 : 8;
        const hex = this.src.slice(this.pos, this.pos + len);
        if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len) this.fail("invalid unicode escape");
        this.pos += len;
        const code = Number.parseInt(hex, 16);
        if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
          this.fail("invalid unicode escape");
        }
        return String.fromCodePoint(code);
      }
      default:
        return this.fail(`invalid escape "\\${c ?? ""}"`, this.pos - 2);
    }
  }
}

function isTable(v: unknown): v is Table {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
