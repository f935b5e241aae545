/** Bounded capture of process output: keeps the head and the tail, counts what was dropped. */

/** Collects bytes up to `maxBytes`, keeping the first and last halves when more arrive. */
export class HeadTailBuffer {
  private readonly headMax: number;
  private readonly tailMax: number;
  private readonly head: Buffer[] = [];
  private headLen = 0;
  private tail: Buffer[] = [];
  private tailLen = 0;
  /** Every byte ever pushed, kept or not. */
  total = 0;

  constructor(maxBytes: number) {
    this.headMax = Math.ceil(maxBytes / 2);
    this.tailMax = Math.floor(maxBytes / 2);
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.headLen < this.headMax) {
      const take = Math.min(this.headMax - this.headLen, rest.length);
      this.head.push(rest.subarray(0, take));
      this.headLen += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0 || this.tailMax === 0) return;
    this.tail.push(rest);
    this.tailLen += rest.length;
    while (this.tailLen > this.tailMax) {
      const first = this.tail[0];
      if (!first) break;
      const excess = this.tailLen - this.tailMax;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailLen -= first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailLen -= excess;
      }
    }
  }

  /** Bytes dropped between head and tail. */
  get omitted(): number {
    return this.total - this.headLen - this.tailLen;
  }

  get truncated(): boolean {
    return this.omitted > 0;
  }

  /** The kept text, with a marker where bytes were dropped. */
  text(): string {
    const head = Buffer.concat(this.head).toString("utf8");
    const tail = Buffer.concat(this.tail).toString("utf8");
    if (!this.truncated) return head + tail;
    return `${head}\n[output truncated: ${this.omitted} bytes omitted]\n${tail}`;
  }
}
