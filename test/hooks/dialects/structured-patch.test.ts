import { describe, expect, it } from "vitest";
import { structuredPatch } from "../../../src/hooks/dialects/shared/structured-patch.js";

describe("structuredPatch", () => {
  it("is empty for equal texts", () => {
    expect(structuredPatch("a\nb\n", "a\nb\n")).toEqual([]);
  });

  it("gives one hunk with up to 3 lines of context around one change", () => {
    const before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
    const after = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n";
    expect(structuredPatch(before, after)).toEqual([
      {
        oldStart: 2,
        oldLines: 7,
        newStart: 2,
        newLines: 7,
        lines: [" 2", " 3", " 4", "-5", "+five", " 6", " 7", " 8"],
      },
    ]);
  });

  it("counts pure insertions and deletions", () => {
    expect(structuredPatch("a\n", "a\nb\n")).toEqual([
      { oldStart: 1, oldLines: 1, newStart: 1, newLines: 2, lines: [" a", "+b"] },
    ]);
    expect(structuredPatch("a\nb\n", "b\n")).toEqual([
      { oldStart: 1, oldLines: 2, newStart: 1, newLines: 1, lines: ["-a", " b"] },
    ]);
  });
});
