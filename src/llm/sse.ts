/**
 * An incremental Server-Sent Events parser: bytes may be split anywhere (inside a line, inside a
 * multi-byte character), comment lines (`: keep-alive`) are skipped, and each completed event
 * yields its joined `data:` payload.
 *
 * Linear in the bytes received: each piece of text is scanned for newlines once, and a line
 * still incomplete is kept as a list of pieces, joined once when its newline arrives (the old
 * parser rescanned its whole buffer per chunk: one 300 MB line reached 1.2 GB RSS). A line or an
 * event larger than `maxEventChars` is an SseLimitError instead of unbounded memory.
 */

/** Default cap on one SSE line or event: far above any real chunk, far below exhausting memory. */
export const DEFAULT_MAX_EVENT_CHARS = 16 * 1024 * 1024;

/** Thrown by push/end when a line or an event grows past the cap. */
export class SseLimitError extends Error {
  override name = "SseLimitError";
}

/** Counters for tests and benchmarks: how much work and memory the parser has used. */
export interface SseParserStats {
  /** Characters examined while looking for line ends (equals characters received when linear). */
  scannedChars: number;
  /** Characters received so far. */
  receivedChars: number;
  /** Largest number of characters held for an incomplete line or event at any time. */
  peakHeldChars: number;
}

/** Parses SSE text fed in arbitrary pieces; `push` returns the data of every event completed. */
export class SseParser {
  private readonly decoder = new TextDecoder();
  private readonly maxEventChars: number;
  /** Pieces of the current incomplete line. */
  private pending: string[] = [];
  private pendingChars = 0;
  private data: string[] = [];
  private dataChars = 0;
  readonly stats: SseParserStats = { scannedChars: 0, receivedChars: 0, peakHeldChars: 0 };

  constructor(opts: { maxEventChars?: number } = {}) {
    this.maxEventChars = opts.maxEventChars ?? DEFAULT_MAX_EVENT_CHARS;
  }

  /** Feeds raw bytes; returns the data payloads of the events they completed. */
  push(bytes: Uint8Array): string[] {
    return this.feed(this.decoder.decode(bytes, { stream: true }));
  }

  /** Flushes the end of the stream; returns any event left without its blank line. */
  end(): string[] {
    const events = this.feed(this.decoder.decode());
    if (this.pending.length > 0) {
      this.line(this.takePending(""), events);
    }
    if (this.data.length > 0) {
      events.push(this.data.join("\n"));
      this.data = [];
      this.dataChars = 0;
    }
    return events;
  }

  private feed(text: string): string[] {
    const events: string[] = [];
    this.stats.receivedChars += text.length;
    let start = 0;
    for (;;) {
      const nl = text.indexOf("\n", start);
      this.stats.scannedChars += (nl < 0 ? text.length : nl + 1) - start;
      if (nl < 0) break;
      this.line(this.takePending(text.slice(start, nl)), events);
      start = nl + 1;
    }
    if (start < text.length) {
      const rest = text.slice(start);
      this.pendingChars += rest.length;
      if (this.pendingChars > this.maxEventChars) this.tooLarge("line");
      this.hold();
      this.pending.push(rest);
    }
    return events;
  }

  private takePending(last: string): string {
    let line = this.pending.length === 0 ? last : this.pending.join("") + last;
    this.pending = [];
    this.pendingChars = 0;
    if (line.endsWith("\r")) line = line.slice(0, -1);
    if (line.length > this.maxEventChars) this.tooLarge("line");
    return line;
  }

  private hold(): void {
    const held = this.pendingChars + this.dataChars;
    if (held > this.stats.peakHeldChars) this.stats.peakHeldChars = held;
  }

  private tooLarge(what: "line" | "event"): never {
    this.pending = [];
    this.pendingChars = 0;
    this.data = [];
    this.dataChars = 0;
    throw new SseLimitError(
      `the server sent an SSE ${what} over ${this.maxEventChars} characters; the stream was ended`,
    );
  }

  private line(line: string, events: string[]): void {
    if (line === "") {
      if (this.data.length > 0) events.push(this.data.join("\n"));
      this.data = [];
      this.dataChars = 0;
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    if (field !== "data") return;
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    this.dataChars += value.length + 1;
    if (this.dataChars > this.maxEventChars) this.tooLarge("event");
    this.hold();
    this.data.push(value);
  }
}
