import { describe, expect, it } from "vitest";
import { loadMarkdown, markdownOrPlain } from "../../../src/cli/tui/markdown-loader.js";

describe("markdownOrPlain", () => {
  it("shows sanitized plain text until the renderer is loaded, Markdown after", async () => {
    expect(markdownOrPlain("a **b**\x1b[2J", 40)).toBe("a **b**");
    await loadMarkdown();
    expect(markdownOrPlain("a **b**\x1b[2J", 40)).toBe("a \x1b[1mb\x1b[22m");
  });
});
