/**
 * Hides leaked tool-call markup from streamed text as it arrives. Repair removes the markup
 * from the stored message once the reply is complete (scavenge.ts), but the deltas were
 * already shown by then: without this filter `keel run` printed raw `<｜DSML｜…>` blocks. Text
 * that might be the start of a marker (split across chunks) is held back until it is clear;
 * a block is hidden up to its closing tag (to the end of the reply when it never closes).
 */

const BARS = ["｜", "|"];
const SEPS = ["▁", "_", " "];

interface Opener {
  text: string;
  close: RegExp;
}

const closeTag = (name: string) => new RegExp(`</[｜|]DSML[｜|]${name}\\s*>`);
const LEGACY_CLOSE = /<[｜|]tool[▁_ ]calls[▁_ ]end[｜|]>/;

/** Every literal opening of a leaked block, with the tag that ends it. */
const OPENERS: readonly Opener[] = BARS.flatMap((bar) => [
  { text: `<${bar}DSML${bar}function_calls`, close: closeTag("function_calls") },
  { text: `<${bar}DSML${bar}tool_calls`, close: closeTag("tool_calls") },
  { text: `<${bar}DSML${bar}invoke`, close: closeTag("invoke") },
  ...SEPS.map((sep) => ({ text: `<${bar}tool${sep}calls${sep}begin${bar}>`, close: LEGACY_CLOSE })),
]);

/** Longer than any closing tag (with some whitespace before its `>`). */
const CLOSE_TAIL = 64;

/** Filters one reply's stream of text (or of reasoning). */
export class LeakedMarkupFilter {
  #held = "";
  #hiding: RegExp | null = null;

  /** Takes a delta; returns the text that can be shown now (possibly ""). */
  push(delta: string): string {
    let buf = this.#held + delta;
    this.#held = "";
    let out = "";
    for (;;) {
      if (this.#hiding !== null) {
        const close = this.#hiding.exec(buf);
        if (close === null) {
          // Hidden text is dropped; keep only what could be the start of the closing tag, so a
          // long leaked block costs linear time.
          this.#held = buf.slice(-CLOSE_TAIL);
          return out;
        }
        buf = buf.slice(close.index + close[0].length);
        this.#hiding = null;
        continue;
      }
      const at = buf.indexOf("<");
      if (at < 0) return out + buf;
      out += buf.slice(0, at);
      const rest = buf.slice(at);
      const opener = OPENERS.find((o) => rest.startsWith(o.text));
      if (opener !== undefined) {
        this.#hiding = opener.close;
        buf = rest.slice(opener.text.length);
        continue;
      }
      if (OPENERS.some((o) => o.text.startsWith(rest))) {
        // Could still become a marker: wait for the next delta.
        this.#held = rest;
        return out;
      }
      out += "<";
      buf = rest.slice(1);
    }
  }

  /** The end of the reply: releases held text that never became a marker. */
  end(): string {
    const held = this.#hiding === null ? this.#held : "";
    this.#held = "";
    this.#hiding = null;
    return held;
  }
}
