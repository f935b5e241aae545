/** Turns a tool's zod schema into the JSON Schema the model sees, stable byte for byte. */
import { z } from "zod";

/** Draft 2020-12 without `$schema`, keys sorted, zod's safe-integer bounds dropped. */
export function toParameters(schema: z.ZodType): Record<string, unknown> {
  const raw: unknown = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
  const cleaned = clean(raw);
  return isRecord(cleaned) ? cleaned : { type: "object" };
}

function clean(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clean);
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    if (key === "$schema") continue;
    const v = value[key];
    // zod adds these to every .int(); they are noise to the model and cost prefix bytes.
    if (key === "maximum" && v === Number.MAX_SAFE_INTEGER) continue;
    if (key === "minimum" && v === Number.MIN_SAFE_INTEGER) continue;
    out[key] = clean(v);
  }
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
