import { describe, expect, it } from "vitest";
import { SseParser } from "../../src/llm/sse.js";

const STREAM =
  ': keep-alive\n\ndata: {"a":"héllo ｜DSML｜"}\r\n\r\n: keep-alive\n\ndata: line1\ndata: line2\n\nevent: x\ndata: [DONE]\n\n';
const EXPECTED = ['{"a":"héllo ｜DSML｜"}', "line1\nline2", "[DONE]"];

describe("SseParser", () => {
  it("yields the same events however the bytes are split", () => {
    const bytes = new TextEncoder().encode(STREAM);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const parser = new SseParser();
      const events = [
        ...parser.push(bytes.slice(0, cut)),
        ...parser.push(bytes.slice(cut)),
        ...parser.end(),
      ];
      expect(events, `cut at ${cut}`).toEqual(EXPECTED);
    }
  });

  it("yields events fed one byte at a time", () => {
    const parser = new SseParser();
    const events = [...new TextEncoder().encode(STREAM)].flatMap((b) =>
      parser.push(Uint8Array.of(b)),
    );
    expect([...events, ...parser.end()]).toEqual(EXPECTED);
  });

  it("flushes a final event without its blank line", () => {
    const parser = new SseParser();
    expect([...parser.push(new TextEncoder().encode("data: tail")), ...parser.end()]).toEqual([
      "tail",
    ]);
  });
});
