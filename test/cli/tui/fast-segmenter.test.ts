/**
 * The fast segmenter answers only text the real one would cut into single code points, and
 * answers it the same way (segments, indices, containing()); everything else goes to ICU.
 */
import { describe, expect, it } from "vitest";
import { FastSegmenter, isSimpleText } from "../../../src/cli/tui/fast-segmenter.js";

const real = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const fast = new FastSegmenter(undefined, { granularity: "grapheme" });
const list = (segments: Iterable<{ segment: string; index: number }>) =>
  [...segments].map(({ segment, index }) => [segment, index]);

/** Every code point the fast path accepts. */
const SIMPLE: string[] = [];
for (let c = 0; c <= 0xffff; c++) {
  const ch = String.fromCharCode(c);
  if (isSimpleText(ch)) SIMPLE.push(ch);
}

describe("FastSegmenter", () => {
  it("accepts only code points that are a grapheme cluster of their own, even next to any other", () => {
    expect(SIMPLE.length).toBeGreaterThan(2000);
    // Each accepted code point, alone and between letters, combining marks, ZWJ, variation
    // selectors and CR/LF: where the real segmenter joins it to a neighbour, the text is not
    // simple (the neighbour is not accepted), so only all-simple texts are compared.
    for (const ch of SIMPLE) {
      for (const text of [
        ch,
        `a${ch}b`,
        `${ch}${ch}`,
        `\n${ch}\n`,
        `${ch}\u0301`,
        `${ch}\u200d`,
        `${ch}\ufe0f`,
      ]) {
        if (!isSimpleText(text)) continue;
        expect(list(fast.segment(text)), JSON.stringify(text)).toEqual(list(real.segment(text)));
      }
    }
  });

  it("matches the real segmenter on random texts of accepted code points", () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let n = 0; n < 3000; n++) {
      const text = Array.from(
        { length: 1 + (next() % 12) },
        () => SIMPLE[next() % SIMPLE.length],
      ).join("");
      expect(list(fast.segment(text))).toEqual(list(real.segment(text)));
      const at = next() % text.length;
      expect(fast.segment(text).containing(at)).toEqual(real.segment(text).containing(at));
    }
  });

  it("hands everything else to ICU: emoji sequences, combining marks, CR LF, Hangul", () => {
    for (const text of ["👍🏽", "e\u0301", "\r\n", "한국", "🇫🇷", "a\u200db", "\u2764\ufe0f"]) {
      expect(isSimpleText(text)).toBe(false);
      expect(list(fast.segment(text))).toEqual(list(real.segment(text)));
    }
  });

  it("answers the TUI's own first-frame text without ICU", () => {
    expect(isSimpleText("\u001b[36m❯ \u001b[39m\u001b[7m \u001b[27m ask Keel, or /help")).toBe(
      true,
    );
    expect(isSimpleText("deepseek-v4-flash · default · ctx 0% · $0.0000 · ─│╭╮ ⠋ ✓ ✗ …")).toBe(
      true,
    );
  });

  it("keeps containing()'s edge cases", () => {
    const s = fast.segment("abc");
    expect(s.containing(-1)).toBeUndefined();
    expect(s.containing(3)).toBeUndefined();
    expect(s.containing(1.7)).toEqual(real.segment("abc").containing(1.7));
  });
});
