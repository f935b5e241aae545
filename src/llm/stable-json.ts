/**
 * Canonical JSON: object keys sorted, no whitespace. Tool specs are rendered with it once so the
 * bytes sent to the model never depend on the order in which an object happened to be built.
 */

/** Serializes `value` like JSON.stringify but with object keys in sorted order at every depth. */
export function stableStringify(value: unknown): string {
  const out = render(value);
  return out === undefined ? "null" : out;
}

function render(value: unknown): string | undefined {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? String(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      return value.toString();
    case "undefined":
    case "function":
    case "symbol":
      return undefined;
  }
  const withJson = value as { toJSON?: () => unknown };
  if (typeof withJson.toJSON === "function") return render(withJson.toJSON());
  if (Array.isArray(value)) {
    return `[${value.map((item) => render(item) ?? "null").join(",")}]`;
  }
  const record = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of Object.keys(record).sort()) {
    const item = render(record[key]);
    if (item !== undefined) parts.push(`${JSON.stringify(key)}:${item}`);
  }
  return `{${parts.join(",")}}`;
}
