/** The streamed-text filter that keeps leaked tool-call markup off the screen. */
import { describe, expect, it } from "vitest";
import { LeakedMarkupFilter } from "../../../src/agent/repair/stream-filter.js";
import { dsmlMarkup, v3Markup } from "../../../src/sim/resolve-reply.js";

/** Feeds `text` in pieces of `size` characters; returns what would be shown. */
function shown(text: string, size: number): string {
  const f = new LeakedMarkupFilter();
  let out = "";
  const chars = [...text];
  for (let i = 0; i < chars.length; i += size) out += f.push(chars.slice(i, i + size).join(""));
  return out + f.end();
}

const call = [{ name: "read_file", arguments: { path: "a.txt" } }];

describe("LeakedMarkupFilter", () => {
  it.each([1, 3, 5, 16, 1000])("hides a DSML block split into %i-character deltas", (size) => {
    expect(shown(`Let me look. ${dsmlMarkup(call)}`, size)).toBe("Let me look. ");
    expect(shown(`Before ${dsmlMarkup(call)} after.`, size)).toBe("Before  after.");
  });

  it.each([1, 4, 1000])("hides the V3 markup and ASCII-bar variants (%i)", (size) => {
    expect(shown(`x${v3Markup(call)}y`, size)).toBe("xy");
    const ascii = dsmlMarkup(call).replaceAll("｜", "|");
    expect(shown(`a${ascii}b`, size)).toBe("ab");
  });

  it("hides a long leaked block in linear time, finding a close tag split across deltas", () => {
    const big = dsmlMarkup([
      { name: "write_file", arguments: { path: "a", content: "x".repeat(200_000) } },
    ]);
    expect(shown(`start ${big} end`, 16)).toBe("start  end");
  });

  it("hides an unclosed block to the end of the reply", () => {
    const cut = dsmlMarkup(call).slice(0, 60);
    expect(shown(`Reading ${cut}`, 7)).toBe("Reading ");
  });

  it.each([1, 2, 1000])("lets ordinary text with < and | through unchanged (%i)", (size) => {
    const text = "if a < b || c <| d then <div> and <|im_end|> and a trailing <";
    expect(shown(text, size)).toBe(text);
  });
});
