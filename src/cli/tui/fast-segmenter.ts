/**
 * A grapheme segmenter that answers text whose every code point is a cluster of its own
 * (printable ASCII, Latin-1 and Latin Extended letters, punctuation, arrows, box drawing,
 * braille, dingbats such as the prompt's `❯`) without ICU, and hands anything else to a real
 * `Intl.Segmenter` made on first need.
 *
 * Why: the first `Intl.Segmenter` in a process loads ICU's break data (~8 ms), and Ink, slice-ansi,
 * ansi-tokenize and wrap-ansi each build one when imported — before the TUI's first frame, which
 * needs none for its own text. The build swaps this class in for theirs (scripts/build-cli.mjs);
 * test/cli/tui/fast-segmenter.test.ts checks it against Intl.Segmenter code point by code point.
 */

/** Code points that never join a neighbour into one grapheme cluster (UAX #29: not Extend,
 *  SpacingMark, Prepend, ZWJ, Regional_Indicator, Hangul or CR). */
const SIMPLE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x00, 0x0c], // controls, tab, LF (only CR, kept out, joins an LF after it)
  [0x0e, 0x7e], // printable ASCII, ESC and the other C0 controls
  [0xa0, 0xac], // Latin-1 (0xAD, the soft hyphen, is a Control but joins nothing: kept out anyway)
  [0xae, 0x2ff], // Latin-1, Latin Extended, IPA, spacing modifiers (0x300 begins the combining marks)
  [0x2010, 0x2027], // dashes, quotes, bullets, ellipsis
  [0x2030, 0x205e],
  [0x2190, 0x23ff], // arrows, mathematical operators, technical symbols
  [0x2500, 0x27bf], // box drawing, blocks, geometric shapes, symbols, dingbats
  [0x2800, 0x28ff], // braille (spinners)
];

function simple(code: number): boolean {
  for (const [from, to] of SIMPLE_RANGES) {
    if (code < from) return false;
    if (code <= to) return true;
  }
  return false;
}

/** Whether every code point of `text` is a grapheme cluster of its own. */
export function isSimpleText(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    if (!simple(text.charCodeAt(i))) return false;
  }
  return true;
}

interface Segment {
  segment: string;
  index: number;
  input: string;
}

/** The segments of simple text: one per code unit (simple text has no surrogates). */
class SimpleSegments implements Iterable<Segment> {
  constructor(private readonly input: string) {}
  *[Symbol.iterator](): Iterator<Segment> {
    const input = this.input;
    for (let index = 0; index < input.length; index++) {
      yield { segment: input.charAt(index), index, input };
    }
  }
  containing(index = 0): Segment | undefined {
    const i = Math.trunc(index);
    if (!(i >= 0 && i < this.input.length)) return undefined;
    return { segment: this.input.charAt(i), index: i, input: this.input };
  }
}

/** Stands in for `Intl.Segmenter` with grapheme granularity (the only one the TUI's packages use). */
export class FastSegmenter {
  private real: Intl.Segmenter | undefined;
  private readonly args: ConstructorParameters<typeof Intl.Segmenter>;

  constructor(...args: ConstructorParameters<typeof Intl.Segmenter>) {
    this.args = args;
    const granularity = args[1]?.granularity ?? "grapheme";
    // Word or sentence segmentation is not ours to answer.
    if (granularity !== "grapheme") this.real = new Intl.Segmenter(...args);
  }

  segment(input: string): Intl.Segments | SimpleSegments {
    const text = String(input);
    if (this.real === undefined && isSimpleText(text)) return new SimpleSegments(text);
    this.real ??= new Intl.Segmenter(...this.args);
    return this.real.segment(text);
  }

  resolvedOptions(): Intl.ResolvedSegmenterOptions {
    this.real ??= new Intl.Segmenter(...this.args);
    return this.real.resolvedOptions();
  }
}
