/**
 * The display width of text made only of characters whose width is plain to see, without
 * `string-width`'s start-up cost. That package builds `\p{RGI_Emoji}` and Intl.Segmenter
 * machinery at import and compiles the emoji pattern on its first non-ASCII string: ~40 ms
 * before the TUI's first frame (which has "·", "─" and "…"). The bundle (scripts/build-cli.mjs)
 * puts this in front of `string-width` for Ink and wrap-ansi; anything it does not cover
 * (emoji, CJK, combining marks, surrogates, unusual escape sequences, non-default options)
 * returns undefined and goes to `string-width` itself, loaded then.
 */

/**
 * Code point ranges (inclusive) of characters that are one column wide and never join a
 * neighbour into one grapheme cluster, so a string of them is as wide as it is long. Derived
 * from `string-width` and Intl.Segmenter; test/cli/tui/string-width-fast.test.ts checks every
 * code point in them against both.
 */
export const NARROW_RANGES: readonly (readonly [number, number])[] = [
  [0xa0, 0xac], // Latin-1 (0xAD, the soft hyphen, is zero-width)
  [0xae, 0x2ff], // Latin Extended, IPA, spacing modifier letters
  [0x2010, 0x2029], // dashes, quotes, bullets, "…"
  [0x202f, 0x205e],
  [0x2190, 0x2319], // arrows, mathematical operators, technical symbols (⌚⌛ are emoji)
  [0x231c, 0x2328],
  [0x232b, 0x23e8],
  [0x23ed, 0x23ef],
  [0x23f1, 0x23f2],
  [0x23f4, 0x23ff],
  [0x2500, 0x25fc], // box drawing, blocks, geometric shapes (◽◾ are emoji)
  [0x2706, 0x2709], // dingbats (✅ ✊ ✋ ✨ ❌ are emoji)
  [0x270c, 0x2727], // ✓ ✗ ✻
  [0x2758, 0x2794], // ❯ ➔
  [0x2800, 0x28ff], // braille (spinners)
];

/** One 64K bitmap of the ranges above, built on first use (a few microseconds). */
let narrow: Uint8Array | null = null;

function narrowTable(): Uint8Array {
  if (narrow) return narrow;
  const table = new Uint8Array(0x10000);
  for (let c = 0x20; c <= 0x7e; c++) table[c] = 1;
  for (const [from, to] of NARROW_RANGES) table.fill(1, from, to + 1);
  narrow = table;
  return table;
}

const ESC = String.fromCharCode(0x1b);

/** SGR colour/style sequences, the only escapes Ink's own output puts inside measured text. */
const SGR = new RegExp(`${ESC}\\[[0-9;]*m`, "g");

/** Options `string-width` takes (wrap-ansi measures words with `countAnsiEscapeCodes`). */
export interface StringWidthOptions {
  ambiguousIsNarrow?: boolean;
  countAnsiEscapeCodes?: boolean;
}

/**
 * `string-width`'s answer for `text` when every character (after removing SGR sequences, or
 * with `countAnsiEscapeCodes` apart from ESC, which is zero-width then) lies in
 * {@link NARROW_RANGES}; undefined when `string-width` itself must decide.
 */
export function simpleStringWidth(text: unknown, options?: StringWidthOptions): number | undefined {
  if (typeof text !== "string") return undefined;
  if (options?.ambiguousIsNarrow === false) return undefined;
  const countEscapes = options?.countAnsiEscapeCodes === true;
  // string-width strips with ansi-regex; on text whose only escapes are SGR sequences that
  // removes exactly these, and any other escape (or a C1 control) is left to string-width.
  // Counting escape codes, it measures ESC as a control character (no width) and the rest of
  // the sequence as the printable characters it is.
  const plain = !countEscapes && text.includes(ESC) ? text.replace(SGR, "") : text;
  const table = narrowTable();
  let width = 0;
  for (let i = 0; i < plain.length; i++) {
    const code = plain.charCodeAt(i);
    if (table[code] === 1) width++;
    else if (!(countEscapes && code === 0x1b)) return undefined;
  }
  return width;
}
