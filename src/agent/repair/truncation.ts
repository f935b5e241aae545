/**
 * Repair of tool-call argument JSON as models actually emit it: wrapped in a ```json fence or
 * prefixed with `json`, followed by stray text, cut off at the output limit, or double-encoded.
 * Pure; never throws.
 */
import { jsonDepthExceeded } from "../../base/index.js";

/**
 * Arrays and objects nest at most this deep in a call's arguments. Everything after the parse
 * walks the value recursively (canonical keys, schema checks, hook payloads, the session log),
 * so deeper text from the model is refused here, before any of it is parsed.
 */
export const MAX_ARGUMENT_DEPTH = 64;

/** The outcome of repairing one arguments string. */
export interface ArgumentsRepair {
  /** The arguments object (`{}` when nothing could be recovered). */
  value: Record<string, unknown>;
  /** True when the text was not valid JSON as sent and had to be changed. */
  repaired: boolean;
  /** True when nothing usable was recovered and `value` is the `{}` fallback. */
  failed: boolean;
  /** True when a string value was cut off (closed by the repair): its content is incomplete. */
  cutString: boolean;
  /** What was done, for people ("" when nothing was). */
  note: string;
  /** True when the arguments nest deeper than MAX_ARGUMENT_DEPTH (then `failed` is true too). */
  tooDeep?: boolean;
}

/** A value that is a plain JSON object. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Repairs one tool call's arguments text into an object. Never throws. */
export function repairJsonArguments(raw: string): ArgumentsRepair {
  const notes: string[] = [];
  const text = stripWrapping(raw, notes);
  if (text === "") {
    return { value: {}, repaired: notes.length > 0, failed: false, cutString: false, note: "" };
  }
  if (jsonDepthExceeded(text, MAX_ARGUMENT_DEPTH) !== null) return tooDeep(notes);
  const strict = tryParse(text);
  if (strict.ok) return fromValue(strict.value, { notes, cutString: false });

  const parser = new TolerantParser(text);
  const start = text.indexOf("{");
  if (start < 0) return failure(notes, "no JSON object found");
  if (text.slice(0, start).trim() !== "") notes.push("dropped text before the JSON object");
  parser.pos = start;
  const value = parser.parseValue();
  if (parser.error !== null || value === MISSING) {
    return failure(notes, parser.error ?? "no JSON value found");
  }
  notes.push(...parser.notes);
  if (text.slice(parser.pos).trim() !== "")
    notes.push("dropped trailing text after the JSON value");
  return fromValue(value, { notes, cutString: parser.cutString, repairedAnyway: true });
}

function fromValue(
  value: unknown,
  opts: { notes: string[]; cutString: boolean; repairedAnyway?: boolean },
): ArgumentsRepair {
  const { notes } = opts;
  let v = value;
  if (typeof v === "string") {
    // Double-encoded arguments: the object was serialized twice. The outer text was one string
    // (depth 0), so the inner text's depth is checked on its own.
    if (jsonDepthExceeded(v, MAX_ARGUMENT_DEPTH) !== null) return tooDeep(notes);
    const inner = tryParse(v.trim());
    if (inner.ok && isPlainObject(inner.value)) {
      notes.push("decoded double-encoded arguments");
      v = inner.value;
    }
  }
  if (!isPlainObject(v)) {
    return failure(notes, `the arguments are ${describe(v)}, not a JSON object`);
  }
  const repaired = opts.repairedAnyway === true || notes.length > 0;
  return { value: v, repaired, failed: false, cutString: opts.cutString, note: notes.join("; ") };
}

function failure(notes: string[], why: string): ArgumentsRepair {
  return {
    value: {},
    repaired: true,
    failed: true,
    cutString: false,
    note: [...notes, `could not repair the arguments (${why})`].join("; "),
  };
}

function tooDeep(notes: string[]): ArgumentsRepair {
  return {
    ...failure(notes, `arrays and objects nested deeper than ${MAX_ARGUMENT_DEPTH} levels`),
    tooDeep: true,
  };
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return `a ${typeof v}`;
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** Removes a ```json fence (closed or not) or a bare `json` prefix around the value. */
function stripWrapping(raw: string, notes: string[]): string {
  let text = raw.trim();
  const fence = /^```[a-zA-Z]*[ \t]*\r?\n?/.exec(text);
  if (fence) {
    text = text.slice(fence[0].length);
    const close = text.lastIndexOf("```");
    if (close >= 0) text = text.slice(0, close);
    text = text.trim();
    notes.push("stripped a ``` fence");
  } else {
    const prefix = /^json\s*(?=[{["])/i.exec(text);
    if (prefix) {
      text = text.slice(prefix[0].length);
      notes.push('stripped a leading "json"');
    }
  }
  return text;
}

const MISSING: unique symbol = Symbol("missing");
type Parsed = unknown | typeof MISSING;

/**
 * A JSON reader that accepts what truncation leaves behind: at the end of input it closes
 * whatever is open. It also accepts raw control characters inside strings, which models emit
 * for multi-line values. Anything else that is not JSON sets `error`.
 */
class TolerantParser {
  pos = 0;
  error: string | null = null;
  cutString = false;
  readonly notes: string[] = [];
  private readonly noted = new Set<string>();

  constructor(private readonly s: string) {}

  private note(text: string): void {
    if (!this.noted.has(text)) {
      this.noted.add(text);
      this.notes.push(text);
    }
  }

  private skipWs(): void {
    while (this.pos < this.s.length && /\s/.test(this.s[this.pos] ?? "")) this.pos++;
  }

  private get eof(): boolean {
    return this.pos >= this.s.length;
  }

  parseValue(): Parsed {
    this.skipWs();
    if (this.eof) return MISSING;
    const c = this.s[this.pos];
    if (c === "{") return this.parseObject();
    if (c === "[") return this.parseArray();
    if (c === '"') return this.parseString();
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.parseNumber();
    return this.parseLiteral();
  }

  private parseObject(): Parsed {
    this.pos++;
    const obj: Record<string, unknown> = {};
    for (;;) {
      this.skipWs();
      if (this.eof) {
        this.note("closed an unterminated object");
        return obj;
      }
      const c = this.s[this.pos];
      if (c === "}") {
        this.pos++;
        return obj;
      }
      if (c === ",") {
        this.pos++;
        this.skipWs();
        if (this.s[this.pos] === "}") this.note("dropped a trailing comma");
        continue;
      }
      if (c !== '"') return this.fail(`unexpected ${JSON.stringify(c)} where a key belongs`);
      const key = this.readString();
      if (!key.closed) {
        // The input ended inside a key: its name is unknowable, so it is dropped.
        this.note("dropped a key cut off mid-name");
        return obj;
      }
      this.skipWs();
      if (this.eof) {
        setOwn(obj, key.text, null);
        this.note("gave a dangling key the value null");
        return obj;
      }
      if (this.s[this.pos] !== ":")
        return this.fail(`expected ":" after key ${JSON.stringify(key.text)}`);
      this.pos++;
      const value = this.parseValue();
      if (this.error !== null) return MISSING;
      if (value === MISSING) {
        setOwn(obj, key.text, null);
        this.note("gave a dangling key the value null");
        return obj;
      }
      setOwn(obj, key.text, value);
      this.skipWs();
      if (this.eof) continue;
      const next = this.s[this.pos];
      if (next === ",") {
        this.pos++;
        this.skipWs();
        if (this.s[this.pos] === "}") this.note("dropped a trailing comma");
      } else if (next !== "}") {
        return this.fail(`expected "," or "}" after the value of ${JSON.stringify(key.text)}`);
      }
    }
  }

  private parseArray(): Parsed {
    this.pos++;
    const arr: unknown[] = [];
    for (;;) {
      this.skipWs();
      if (this.eof) {
        this.note("closed an unterminated array");
        return arr;
      }
      const c = this.s[this.pos];
      if (c === "]") {
        this.pos++;
        return arr;
      }
      if (c === ",") {
        this.pos++;
        this.skipWs();
        if (this.s[this.pos] === "]") this.note("dropped a trailing comma");
        continue;
      }
      const value = this.parseValue();
      if (this.error !== null) return MISSING;
      if (value !== MISSING) arr.push(value);
      this.skipWs();
      if (this.eof) continue;
      const next = this.s[this.pos];
      if (next !== "," && next !== "]") return this.fail('expected "," or "]" in an array');
    }
  }

  private parseString(): Parsed {
    const { text, closed } = this.readString();
    if (!closed) {
      this.cutString = true;
      this.note("closed an unterminated string");
    }
    return text;
  }

  private readString(): { text: string; closed: boolean } {
    this.pos++;
    let out = "";
    for (;;) {
      if (this.eof) return { text: out, closed: false };
      const c = this.s[this.pos] ?? "";
      if (c === '"') {
        this.pos++;
        return { text: out, closed: true };
      }
      if (c === "\\") {
        const e = this.s[this.pos + 1];
        if (e === undefined) {
          this.pos++;
          continue;
        }
        if (e === "u") {
          const hex = this.s.slice(this.pos + 2, this.pos + 6);
          if (/^[0-9a-fA-F]{4}$/.test(hex)) {
            out += String.fromCharCode(Number.parseInt(hex, 16));
            this.pos += 6;
          } else {
            // A \u escape cut off by the end of input is dropped.
            this.pos = this.s.length;
          }
          continue;
        }
        out += ESCAPES[e] ?? e;
        this.pos += 2;
        continue;
      }
      if (c < " ") this.note("kept raw control characters inside a string");
      out += c;
      this.pos++;
    }
  }

  private parseNumber(): Parsed {
    const m = /^-?\d*(?:\.\d*)?(?:[eE][+-]?\d*)?/.exec(this.s.slice(this.pos));
    const text = m?.[0] ?? "";
    this.pos += text.length;
    const valid = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text)?.[0];
    if (valid === undefined) {
      if (this.eof) return MISSING;
      return this.fail(`malformed number ${JSON.stringify(text)}`);
    }
    if (valid !== text) {
      if (!this.eof) return this.fail(`malformed number ${JSON.stringify(text)}`);
      this.note("completed a number cut off at the end");
    }
    return Number(valid);
  }

  private parseLiteral(): Parsed {
    for (const [word, value] of LITERALS) {
      const rest = this.s.slice(this.pos, this.pos + word.length);
      if (rest === word) {
        this.pos += word.length;
        return value;
      }
      if (this.pos + rest.length === this.s.length && rest.length > 0 && word.startsWith(rest)) {
        this.pos = this.s.length;
        this.note(`completed "${rest}" to ${word}`);
        return value;
      }
    }
    return this.fail(`unexpected ${JSON.stringify(this.s.slice(this.pos, this.pos + 12))}`);
  }

  private fail(message: string): typeof MISSING {
    this.error ??= message;
    return MISSING;
  }
}

const ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

const LITERALS: Array<[string, unknown]> = [
  ["true", true],
  ["false", false],
  ["null", null],
];

/** Sets an own property even for names like `__proto__`, so parsed input cannot touch prototypes. */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}
