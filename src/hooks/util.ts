/** Small helpers shared across the hooks engine. */

/** Whether `value` is a plain JSON-style object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A value built on first use. Zod schemas are built this way: constructing them (and loading
 * zod, which the CLI bundle defers until first use) costs start-up time in commands that never
 * parse what they describe, such as `keel hooks list` in a project without hook files.
 */
export function lazy<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}

/** Stable JSON: object keys sorted at every level (for hashes and identity keys). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? "null";
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      if (value[key] !== undefined) out[key] = sortKeys(value[key]);
    }
    return out;
  }
  return value;
}

/** Each problem once (the same text at the same place is one problem). */
export function uniqueProblems<
  P extends {
    severity: string;
    path: string;
    line?: number;
    column?: number;
    field?: string;
    message: string;
  },
>(problems: readonly P[]): P[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = JSON.stringify([p.severity, p.path, p.line, p.column, p.field, p.message]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
