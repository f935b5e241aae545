import { describe, expect, it } from "vitest";
import * as ed from "../../../src/cli/tui/editor.js";

const typed = (text: string, history: string[] = []) => ed.insert(ed.emptyEditor(history), text);

describe("editor", () => {
  it("inserts and deletes at the cursor", () => {
    let s = typed("helo");
    s = ed.moveHorizontal(s, -1);
    s = ed.insert(s, "l");
    expect(s.text).toBe("hello");
    s = ed.backspace(s);
    expect(s.text).toBe("helo");
    s = ed.deleteForward(s);
    expect(s.text).toBe("hel");
  });

  it("handles surrogate pairs as one character", () => {
    let s = typed("a😀");
    s = ed.backspace(s);
    expect(s.text).toBe("a");
  });

  it("walks history up and down, keeping the draft", () => {
    let s = typed("draft", ["first", "second"]);
    s = ed.moveVertical(s, -1);
    expect(s.text).toBe("second");
    s = ed.moveVertical(s, -1);
    expect(s.text).toBe("first");
    s = ed.moveVertical(s, -1);
    expect(s.text).toBe("first");
    s = ed.moveVertical(s, 1);
    expect(s.text).toBe("second");
    s = ed.moveVertical(s, 1);
    expect(s.text).toBe("draft");
  });

  it("moves between lines of a multi-line prompt before touching history", () => {
    let s = typed("one\ntwo", ["old"]);
    s = ed.moveVertical(s, -1);
    expect(s.text).toBe("one\ntwo");
    expect(s.cursor).toBe(3);
    s = ed.moveVertical(s, -1);
    expect(s.text).toBe("old");
  });

  it("commits to history without duplicates or blanks", () => {
    let s = ed.commit(typed("a"));
    s = ed.commit(ed.insert(s, "a"));
    s = ed.commit(ed.insert(s, "  "));
    expect(s.history).toEqual(["a"]);
    expect(s.text).toBe("");
  });

  it("kills words and lines", () => {
    let s = typed("git push origin");
    s = ed.deleteWordBack(s);
    expect(s.text).toBe("git push ");
    s = ed.killToLineStart(s);
    expect(s.text).toBe("");
    s = ed.moveLineEdge(typed("abc\ndef"), "start");
    expect(s.cursor).toBe(4);
    s = ed.killToLineEnd(s);
    expect(s.text).toBe("abc\n");
  });
});
