import { describe, expect, it } from "vitest";
import { bufferRows } from "../../../src/cli/tui/buffer-rows.js";

const show = (text: string, width: number) =>
  bufferRows(text, width).map((r) => " ".repeat(r.indent) + text.slice(r.start, r.end));

describe("bufferRows", () => {
  it("wraps a long line at spaces, continuation rows indented like the line", () => {
    const rows = show("    alpha beta gamma delta epsilon", 16);
    expect(rows).toEqual(["    alpha beta ", "    gamma ", "    delta ", "    epsilon"]);
    for (const r of rows) expect(r.length).toBeLessThanOrEqual(16);
  });

  it("covers every character once and marks the last row of each line", () => {
    const text = "short\n  a-very-long-word-without-spaces-at-all\n";
    const rows = bufferRows(text, 12);
    expect(rows.map((r) => text.slice(r.start, r.end)).join("")).toBe(text.replace(/\n/g, ""));
    expect(rows.filter((r) => r.last).map((r) => r.line)).toEqual([0, 1, 2]);
    for (const r of rows)
      expect(r.indent + [...text.slice(r.start, r.end)].length).toBeLessThan(12);
  });
});
