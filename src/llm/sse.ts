/**
 * An incremental Server-Sent Events parser: bytes may be split anywhere (inside a line, inside a
 * multi-byte character), comment lines (`: keep-alive`) are skipped, and each completed event
 * yields its joined `data:` payload.
 */

/** Parses SSE text fed in arbitrary pieces; `push` returns the data of every event completed. */
export class SseParser {
  private readonly decoder = new TextDecoder();
  private buffer = "";
  private data: string[] = [];

  /** Feeds raw bytes; returns the data payloads of the events they completed. */
  push(bytes: Uint8Array): string[] {
    this.buffer += this.decoder.decode(bytes, { stream: true });
    return this.drain();
  }

  /** Flushes the end of the stream; returns any event left without its blank line. */
  end(): string[] {
    this.buffer += this.decoder.decode();
    const events = this.drain();
    if (this.buffer.length > 0) {
      this.line(this.buffer, events);
      this.buffer = "";
    }
    if (this.data.length > 0) {
      events.push(this.data.join("\n"));
      this.data = [];
    }
    return events;
  }

  private drain(): string[] {
    const events: string[] = [];
    let start = 0;
    for (;;) {
      const nl = this.buffer.indexOf("\n", start);
      if (nl < 0) break;
      let line = this.buffer.slice(start, nl);
      if (line.endsWith("\r")) line = line.slice(0, -1);
      this.line(line, events);
      start = nl + 1;
    }
    this.buffer = this.buffer.slice(start);
    return events;
  }

  private line(line: string, events: string[]): void {
    if (line === "") {
      if (this.data.length > 0) events.push(this.data.join("\n"));
      this.data = [];
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    if (field !== "data") return;
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    this.data.push(value);
  }
}
