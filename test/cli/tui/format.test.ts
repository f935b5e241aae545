import { describe, expect, it } from "vitest";
import {
  charWidth,
  formatCost,
  formatDuration,
  formatRatio,
  wordWrap,
} from "../../../src/cli/tui/format.js";

describe("wordWrap", () => {
  it.each([
    ["the quick brown fox jumps", 10, "the quick\nbrown fox\njumps"],
    ["  indented code stays indented", 40, "  indented code stays indented"],
    ["a\n\nb", 5, "a\n\nb"],
    ["abcdefghijkl", 5, "abcde\nfghij\nkl"],
    ["go abcdefghijkl", 5, "go\nabcde\nfghij\nkl"],
    ["日本語のテキスト", 6, "日本語\nのテキ\nスト"],
  ])("wraps %j at %i columns", (text, width, expected) => {
    expect(wordWrap(text, width)).toBe(expected);
  });

  it("never starts a wrapped line with the space it broke at", () => {
    const text = "Line 007: the quick brown fox jumps over the lazy dog, and keeps going to make";
    for (const line of wordWrap(text, 30).split("\n")) {
      expect(line.startsWith(" ")).toBe(false);
      expect(line.length).toBeLessThanOrEqual(30);
    }
  });
});

describe("numbers", () => {
  it("formats what the status line and cards print", () => {
    expect(formatRatio(0.934)).toBe("93%");
    expect(formatRatio(null)).toBe("–");
    expect(formatCost(0.00012)).toBe("$0.0001");
    expect(formatCost(1.234)).toBe("$1.23");
    // One format: no "$0.00" at the start of a session that then turns into "$0.0002".
    expect(formatCost(0)).toBe("$0.0000");
    expect(formatCost(0.02)).toBe("$0.0200");
    expect(formatDuration(850)).toBe("850ms");
    expect(formatDuration(125_000)).toBe("2m05s");
    expect(charWidth("日".codePointAt(0) ?? 0)).toBe(2);
    expect(charWidth("\u0301".codePointAt(0) ?? 0)).toBe(0);
  });
});
