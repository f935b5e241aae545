import { describe, expect, it } from "vitest";
import { renderMarkdown, visibleWidth } from "../../../src/cli/tui/markdown.js";

const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "");

describe("renderMarkdown", () => {
  it("styles bold, italics and inline code, and drops the markers", () => {
    const out = renderMarkdown("a **b** *c* `d`", 40);
    expect(out).toContain("\x1b[1mb\x1b[22m");
    expect(out).toContain("\x1b[3mc\x1b[23m");
    expect(out).toContain("\x1b[33md\x1b[39m");
    expect(plain(out)).toBe("a b c d");
  });

  it("renders headings, nested lists with bold in items, links with their address", () => {
    const out = plain(
      renderMarkdown(
        "## Plan\n\n- **first** step\n  - inner\n3. three\n\n[docs](https://x.dev/d)",
        60,
      ),
    );
    expect(out).toBe("Plan\n\n• first step\n  • inner\n3. three\n\ndocs (https://x.dev/d)");
  });

  it("colours fenced code by language and keeps its indentation", () => {
    const out = renderMarkdown("```ts\nconst x = 1;\n  return x;\n```", 40);
    expect(out).toContain("\x1b[35mconst\x1b[39m");
    expect(plain(out)).toBe("  const x = 1;\n    return x;");
  });

  it("wraps paragraphs and list items to the width with a hanging indent", () => {
    const out = plain(renderMarkdown(`- ${"word ".repeat(20).trim()}`, 30));
    const lines = out.split("\n");
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(visibleWidth(line)).toBeLessThanOrEqual(30);
    for (const line of lines.slice(1)) expect(line.startsWith("  word")).toBe(true);
  });

  it("removes escape sequences from the source and shows a stray control character", () => {
    const out = renderMarkdown("hi \x1b[2J\x1b]0;title\x07there\x08 **x**", 40);
    expect(out).not.toContain("\x1b[2J");
    expect(out).not.toContain("\x1b]");
    expect(out).not.toContain("\x08");
    expect(plain(out)).toBe("hi there\\x08 x");
  });
});

describe("a table wider than the terminal", () => {
  const source = [
    "| name | description | default |",
    "|---|---|---|",
    "| timeout | how long to wait before giving up on the request entirely | 60 |",
    "| retries | number of retries | 5 |",
  ].join("\n");

  it("narrows its widest column and wraps cells inside it, so columns stay columns", () => {
    const out = plain(renderMarkdown(source, 58));
    const lines = out.split("\n");
    for (const line of lines) expect(visibleWidth(line)).toBeLessThanOrEqual(58);
    expect(lines[0]).toMatch(/^name {4}│ description +│ default$/);
    expect(lines[2]).toMatch(/^timeout │ how long to wait .*│ 60$/);
    // The wrapped rest of the cell stays in its column.
    expect(lines[3]).toMatch(/^ {8}│ .*entirely/);
    expect(lines[4]).toMatch(/^retries │ number of retries +│ 5$/);
  });

  it("renders only the rows not shown yet, in the whole table's column widths", () => {
    const out = plain(renderMarkdown(source, 100, { tableRowsShown: 1 }));
    expect(out.split("\n")).toEqual([
      "retries │ number of retries                                         │ 5",
    ]);
  });
});
