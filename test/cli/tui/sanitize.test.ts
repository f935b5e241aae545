import { describe, expect, it } from "vitest";
import { sanitize, sanitizeLine } from "../../../src/cli/tui/sanitize.js";

describe("sanitize", () => {
  const cases: Array<[string, string, string]> = [
    ["colour codes", "\x1b[31mred\x1b[0m text", "red text"],
    ["cursor movement and clear screen", "a\x1b[2J\x1b[Hb\x1b[10;5Hc", "abc"],
    [
      "OSC title and hyperlink",
      "\x1b]0;pwned\x07x\x1b]8;;http://e\x1b\\link\x1b]8;;\x1b\\",
      "xlink",
    ],
    ["bell, backspace, NUL: shown, not acted on", "a\x07b\x08c\x00d", "a\\x07b\\x08c\\x00d"],
    ["C1 CSI: shown", "a\x9b31mb", "a\\x9b31mb"],
    ["carriage return overwrite", "progress 10%\rprogress 90%\ndone", "progress 90%\ndone"],
    ["CRLF", "a\r\nb", "a\nb"],
    ["tabs expand", "a\tb", "a  b"],
    ["bidi override: shown", "abc\u202edef", "abc\\u{202e}def"],
    ["zero-width space: shown", "rm\u200b-rf", "rm\\u{200b}-rf"],
    ["keeps an emoji ZWJ sequence", "family 👨\u200d👩\u200d👧 ok", "family 👨\u200d👩\u200d👧 ok"],
    ["keeps a Persian zero-width non-joiner", "می\u200cخواهم", "می\u200cخواهم"],
    ["shows a joiner between ASCII letters", "a\u200db", "a\\u{200d}b"],
    ["DCS", "x\x1bPq#0;2;0;0;0\x1b\\y", "xy"],
    ["keeps unicode", "héllo ✓ 日本", "héllo ✓ 日本"],
  ];
  it.each(cases)("%s", (_name, input, expected) => {
    expect(sanitize(input)).toBe(expected);
  });

  it("never leaves an escape or control byte behind", () => {
    let junk = "";
    for (let c = 0; c < 0xa0; c++) junk += `${String.fromCharCode(c)}x`;
    const out = sanitize(junk);
    expect(out).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
  });

  it("flattens to one line", () => {
    expect(sanitizeLine("  a\n\n b \x1b[1m c\n")).toBe("a b  c");
  });
});
