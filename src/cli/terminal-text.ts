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

/**
 * A command made fully visible for a trust decision: nothing is hidden or cut. Single spaces
 * between words stay; runs of spaces (and leading/trailing ones) become `·` or `␠×N`; tabs,
 * newlines, escapes, control characters and bidi overrides are written as `\t`, `\n`, `\e`, `\xNN`.
 */
export function visibleCommand(text: string): string {
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
