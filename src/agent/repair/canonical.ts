/**
 * Canonical JSON (object keys sorted at every level) so two calls with the same arguments in a
 * different key order compare equal: used for deduplication and the storm breaker.
 */

/** JSON text of `value` with object keys sorted; identical for equal values. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? "null";
}

/** A key identifying one tool call: its name and canonical arguments. */
export function callKey(name: string, args: unknown): string {
  return `${name}\u0000${canonicalJson(args)}`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  const entries: Array<[string, unknown]> = Object.entries(value);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [key, v] of entries) {
    Object.defineProperty(out, key, {
      value: sortKeys(v),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
