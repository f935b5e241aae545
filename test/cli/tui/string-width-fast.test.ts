import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { NARROW_RANGES, simpleStringWidth } from "../../../src/cli/tui/string-width-fast.js";

const segmenter = new Intl.Segmenter();
const graphemes = (s: string) => [...segmenter.segment(s)].length;

/** Every code point the fast path claims, as single characters. */
function narrowChars(): string[] {
  const out: string[] = [];
  for (let c = 0x20; c <= 0x7e; c++) out.push(String.fromCharCode(c));
  for (const [from, to] of NARROW_RANGES) {
    for (let c = from; c <= to; c++) out.push(String.fromCharCode(c));
  }
  return out;
}

/** A small deterministic generator, so a failure names a reproducible string. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

describe("simpleStringWidth", () => {
  it("agrees with string-width on every code point it claims, each one column wide", () => {
    const wrong = narrowChars().filter(
      (ch) => simpleStringWidth(ch) !== stringWidth(ch) || stringWidth(ch) !== 1,
    );
    expect(wrong.map((ch) => ch.codePointAt(0)?.toString(16))).toEqual([]);
  });

  it("claims only characters that never join a neighbour into one grapheme", () => {
    const joining = narrowChars().filter(
      (ch) => graphemes(`a${ch}a`) !== 3 || graphemes(ch + ch) !== 2,
    );
    expect(joining.map((ch) => ch.codePointAt(0)?.toString(16))).toEqual([]);
  });

  it("agrees with string-width on mixed strings, colours included, or defers to it", () => {
    const pieces = [
      ...narrowChars().filter((_, i) => i % 97 === 0),
      "·",
      "─",
      "…",
      "❯",
      "⠋",
      "\x1b[31m",
      "\x1b[39m",
      "\x1b[1;2m",
      "\x1b]8;;http://x\x07",
      "\x9b31m",
      "é",
      "e\u0301",
      "\u00ad",
      "\u200b",
      "中",
      "✅",
      "⌚",
      "🔀",
      "👍🏽",
      "\t",
      "\n",
    ];
    // wrap-ansi measures words with countAnsiEscapeCodes; Ink and the rest with the defaults.
    for (const options of [undefined, { countAnsiEscapeCodes: true }]) {
      const next = random(12);
      let claimed = 0;
      for (let n = 0; n < 5000; n++) {
        let s = "";
        const len = Math.floor(next() * 12);
        for (let i = 0; i < len; i++) s += pieces[Math.floor(next() * pieces.length)];
        const fast = simpleStringWidth(s, options);
        if (fast === undefined) continue;
        claimed++;
        expect({ s, options, width: fast }).toEqual({ s, options, width: stringWidth(s, options) });
      }
      // The fast path has to cover most of such text, or the TUI pays for string-width anyway.
      expect(claimed).toBeGreaterThan(1000);
    }
  });

  it("covers the TUI's own first frame and defers what it cannot know", () => {
    const status = "  deepseek-chat · default · \x1b[2m$0.00\x1b[22m";
    expect(simpleStringWidth(status)).toBe(33);
    expect(stringWidth(status)).toBe(33);
    expect(simpleStringWidth("❯ ask Keel, or /help")).toBe(20);
    expect(simpleStringWidth("")).toBe(0);
    expect(simpleStringWidth("中文")).toBeUndefined();
    expect(simpleStringWidth("ok ✅")).toBeUndefined();
    expect(simpleStringWidth("\x1b]8;;http://x\x07link")).toBeUndefined();
    expect(simpleStringWidth("abc", { ambiguousIsNarrow: false })).toBeUndefined();
    expect(simpleStringWidth("abc", { countAnsiEscapeCodes: true })).toBe(3);
    expect(simpleStringWidth("\x1b[31mab", { countAnsiEscapeCodes: true })).toBe(6);
    expect(stringWidth("\x1b[31mab", { countAnsiEscapeCodes: true })).toBe(6);
    expect(simpleStringWidth(42)).toBeUndefined();
  });
});
