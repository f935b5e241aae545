/**
 * What hooks of one firing share. Hooks of one dialect given the same payload get the same
 * stdin and variables, so they are shaped once per firing: hooks that run one after another
 * (Reasonix, a Gemini `sequential` group) paid a payload serialization per hook. Keyed by
 * object identity: a chained payload (chain.ts) is a new object and is shaped anew. One
 * firing's, never kept: a timestamp in the stdin stays the firing's.
 */
import type { Dialect, ShapedPayload } from "./dialects/index.js";

/** The value under `key`, made and kept on first use. */
function kept<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  const found = map.get(key);
  if (found !== undefined) return found;
  const made = make();
  map.set(key, made);
  return made;
}

export class FiringMemo {
  private readonly shaped = new Map<Dialect, Map<object, ShapedPayload>>();

  shape(dialect: Dialect, payload: object, make: () => ShapedPayload): ShapedPayload {
    return kept(
      kept(this.shaped, dialect, () => new Map()),
      payload,
      make,
    );
  }
}
