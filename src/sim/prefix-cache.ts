/**
 * DeepSeek's context cache, modelled: per API key, prompts are stored in 64-token units from
 * token 0; a request hits on the longest stored prefix of whole units. Units are identified by a
 * chained hash (unit i's id covers tokens 0..64(i+1)), so a lookup costs O(prompt tokens) however
 * many requests came before.
 */
import { createHash } from "node:crypto";

/** DeepSeek's storage unit in tokens. */
export const CACHE_UNIT = 64;

/** Cache accounting of one request. */
export interface CacheAccount {
  promptTokens: number;
  hitTokens: number;
  missTokens: number;
  /**
   * The best hit an append-only client could have had: the prompt length (this request's, or
   * the earlier request it continues, whichever is shorter) rounded down to 64-token units.
   * The request it continues is the latest earlier request of the same key sharing the most
   * units with it (or simply the latest one when none shares a unit). Rounded down, because a
   * partial unit can never hit; so hit / limit is 1.0 exactly when nothing cacheable was lost.
   */
  cacheableLimitTokens: number;
  /** Index (in the simulator's request list) of the request this one continues, if any. */
  continuesRequest: number | null;
}

interface KeyState {
  /** Chained unit hash → index of the latest request that contained it. */
  units: Map<string, number>;
  /** Prompt length of each earlier request of this key. */
  lengths: Map<number, number>;
  latest: number | null;
}

/** The per-key prefix store. */
export class PrefixCache {
  private readonly keys = new Map<string, KeyState>();

  /** Accounts request `index` of `key` whose prompt is the concatenation of `segments`. */
  account(key: string, index: number, segments: readonly Uint32Array[]): CacheAccount {
    const state = this.state(key);
    const tokens = concat(segments);
    const unitIds = chainedUnitIds(tokens);
    let hitUnits = 0;
    while (hitUnits < unitIds.length && state.units.has(unitIds[hitUnits] ?? "")) hitUnits++;
    const continues =
      hitUnits > 0 ? (state.units.get(unitIds[hitUnits - 1] ?? "") ?? null) : state.latest;
    const earlierLength = continues === null ? 0 : (state.lengths.get(continues) ?? 0);
    const limit = floorUnit(Math.min(tokens.length, earlierLength));
    for (const id of unitIds) state.units.set(id, index);
    state.lengths.set(index, tokens.length);
    state.latest = index;
    const hitTokens = hitUnits * CACHE_UNIT;
    return {
      promptTokens: tokens.length,
      hitTokens,
      missTokens: tokens.length - hitTokens,
      cacheableLimitTokens: limit,
      continuesRequest: continues,
    };
  }

  private state(key: string): KeyState {
    let state = this.keys.get(key);
    if (!state) {
      state = { units: new Map(), lengths: new Map(), latest: null };
      this.keys.set(key, state);
    }
    return state;
  }
}

function floorUnit(n: number): number {
  return Math.floor(n / CACHE_UNIT) * CACHE_UNIT;
}

function concat(segments: readonly Uint32Array[]): Uint32Array {
  let length = 0;
  for (const s of segments) length += s.length;
  const out = new Uint32Array(length);
  let offset = 0;
  for (const s of segments) {
    out.set(s, offset);
    offset += s.length;
  }
  return out;
}

/** One id per whole unit; id i hashes id i-1 with unit i, so it names the whole prefix. */
function chainedUnitIds(tokens: Uint32Array): string[] {
  const ids: string[] = [];
  const bytes = Buffer.from(tokens.buffer, tokens.byteOffset, tokens.byteLength);
  let previous = "";
  for (let start = 0; start + CACHE_UNIT <= tokens.length; start += CACHE_UNIT) {
    previous = createHash("sha1")
      .update(previous)
      .update(bytes.subarray(start * 4, (start + CACHE_UNIT) * 4))
      .digest("base64");
    ids.push(previous);
  }
  return ids;
}
