/**
 * Makes text from tools, hooks and models safe to put on the screen: escape sequences could
 * move the cursor, recolour or clear the TUI, so everything that did not come from Keel itself
 * goes through `sanitize` before it is rendered.
 */

// CSI (ESC [ ... final), OSC (ESC ] ... BEL or ST), DCS/SOS/PM/APC (ESC P|X|^|_ ... ST), and the
// two-byte ESC sequences. The 8-bit CSI (0x9b) is covered by the C1 removal below.
const ESCAPE_SEQUENCE =
  /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b[ -/]*[0-~]?/g;
// C0 controls except tab and newline, DEL, C1 controls, and bidi overrides that reorder text.
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/** Options for {@link sanitize}. */
export interface SanitizeOptions {
  /** Columns a tab expands to (default 2). */
  tabWidth?: number;
}

/**
 * Removes escape sequences and control characters; keeps newlines, expands tabs, and resolves
 * carriage returns the way a terminal would (the text after the last `\r` on a line wins).
 */
export function sanitize(text: string, opts: SanitizeOptions = {}): string {
  const tab = " ".repeat(opts.tabWidth ?? 2);
  const noEscapes = text.replace(ESCAPE_SEQUENCE, "");
  const lines = noEscapes.replace(/\r\n/g, "\n").split("\n");
  return lines
    .map((line) => {
      const cr = line.lastIndexOf("\r");
      const tail = cr >= 0 && cr < line.length - 1 ? line.slice(cr + 1) : line;
      return tail.replace(/\t/g, tab).replace(CONTROL, "");
    })
    .join("\n");
}

/** Sanitizes and flattens to one line (newlines become spaces). */
export function sanitizeLine(text: string): string {
  return sanitize(text)
    .replace(/\s*\n\s*/g, " ")
    .trim();
}

/** Runs of spaces at least this long are shown as `␠×N` rather than one `·` per space. */
const LONG_RUN = 8;

function escapeChar(c: string): string {
  const code = c.codePointAt(0) ?? 0;
  if (c === "\t") return "\\t";
  if (c === "\n") return "\\n";
  if (c === "\r") return "\\r";
  if (c === "\x1b") return "\\e";
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u{${code.toString(16)}}`;
}

/** What visibleCommand rewrites: a control or invisible character, a run of spaces, an edge space. */
const NEEDS_SHOWING =
  /[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]|^ | $| {2}/;

/**
 * A command made fully visible for a trust decision: nothing is hidden or cut. Single spaces
 * between words stay; runs of spaces (and leading/trailing ones) become `·` or `␠×N`; tabs,
 * newlines, escapes, control characters and bidi overrides are written as `\t`, `\n`, `\e`, `\xNN`.
 */
export function visibleCommand(text: string): string {
  // Most commands have nothing to show and come back as they are (`keel hooks list` starts
  // faster without walking each one a character at a time).
  if (!NEEDS_SHOWING.test(text)) return text;
  let out = "";
  for (let i = 0; i < text.length; ) {
    const c = text[i] as string;
    if (c === " ") {
      let j = i;
      while (text[j] === " ") j++;
      const run = j - i;
      const edge = i === 0 || j === text.length;
      if (run === 1 && !edge) out += " ";
      else out += run >= LONG_RUN ? ` ␠×${run} ` : "·".repeat(run);
      i = j;
    } else if (/[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/.test(c)) {
      out += escapeChar(c);
      i++;
    } else {
      const cp = text.codePointAt(i) ?? 0;
      const ch = String.fromCodePoint(cp);
      out += ch;
      i += ch.length;
    }
  }
  return out;
}

/** Escape sequences, controls (but \n and \t), bare CRs and bidi overrides, for plain output. */
const STRIP_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/** An escape sequence may still be arriving when a chunk ends with it: hold back this much. */
const MAX_HELD_ESCAPE = 4096;

/**
 * Strips what could drive a terminal (OSC 52 clipboard writes, clear screen, cursor moves,
 * colours, bare CRs that overwrite a line) from text written in pieces, keeping `\n` and `\t`.
 * A sequence split across pieces is held back until complete, so it cannot slip through.
 * Used for every plain-text output that carries model or hook text, terminal or not: Keel itself
 * writes no escape bytes there.
 */
export function createTextStripper(): { push(text: string): string; flush(): string } {
  let held = "";
  const clean = (text: string) =>
    text.replace(/\r\n/g, "\n").replace(ESCAPE_SEQUENCE, "").replace(STRIP_CONTROL, "");
  return {
    push(text) {
      const all = held + text;
      held = "";
      const esc = all.lastIndexOf("\x1b");
      if (esc >= 0 && all.length - esc <= MAX_HELD_ESCAPE) {
        const tail = all.slice(esc);
        if (!escapeComplete(tail)) {
          held = tail;
          return clean(all.slice(0, esc));
        }
      }
      // A CR at the very end may be the first half of CRLF.
      if (all.endsWith("\r")) {
        held = "\r";
        return clean(all.slice(0, -1));
      }
      return clean(all);
    },
    flush() {
      const rest = held;
      held = "";
      return clean(rest);
    },
  };
}

/** Whether `tail` (starting at an ESC) holds a whole escape sequence, or could still grow. */
function escapeComplete(tail: string): boolean {
  const kind = tail[1];
  if (kind === undefined) return false;
  if (kind === "[") return /^\x1b\[[0-?]*[ -/]*[@-~]/.test(tail);
  if ("]PX^_".includes(kind)) return /\x07|\x1b\\/.test(tail.slice(2));
  return /^\x1b[ -/]*[0-~]/.test(tail);
}

/** Text with every escape sequence and control character but `\n` and `\t` removed. */
export function stripControls(text: string): string {
  const s = createTextStripper();
  return s.push(text) + s.flush();
}

/**
 * JSON.stringify with C1 controls, DEL, line separators and bidi overrides also written as
 * `\uXXXX`: the same JSON value, and no byte a terminal could act on (JSON.stringify escapes only
 * characters below U+0020).
 */
export function terminalSafeJson(value: unknown): string {
  return (JSON.stringify(value) ?? "null").replace(
    /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, "0")}`,
  );
}
