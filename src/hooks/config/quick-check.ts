/**
 * A fast path in front of the zod schemas of hook files. Loading and building zod costs
 * ~10 ms of every `keel hooks list` that has hook files, yet nearly every entry is plainly
 * valid. A quick check accepts only values it is sure zod accepts and returns exactly what
 * zod would (same keys, same order); anything else, including every invalid value, goes to
 * zod, so every problem message still comes from the schema. test/hooks/config/quick-check
 * compares both on valid and invalid values, field by field.
 */
import type { z } from "zod";

/** What a quick field check returns when it is not sure: zod decides. */
const UNSURE = Symbol("unsure");
type Kind = (v: unknown) => unknown;

const finite = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/** Field kinds, named after the zod schema each stands for. */
export const kinds = {
  string: (v: unknown) => (typeof v === "string" ? v : UNSURE),
  nonEmptyString: (v: unknown) => (typeof v === "string" && v.length > 0 ? v : UNSURE),
  boolean: (v: unknown) => (typeof v === "boolean" ? v : UNSURE),
  positive: (v: unknown) => (finite(v) && v > 0 ? v : UNSURE),
  positiveInt: (v: unknown) => (Number.isSafeInteger(v) && (v as number) > 0 ? v : UNSURE),
  unknown: (v: unknown) => v,
  strings: (v: unknown) => arrayOf(v, kinds.string, 0),
  unknowns: (v: unknown) => arrayOf(v, kinds.unknown, 0),
  stringRecord: (v: unknown) => recordOf(v, kinds.string),
  unknownRecord: (v: unknown) => recordOf(v, kinds.unknown),
  /** A literal (zod's `z.literal`). */
  exactly: (expected: string | number | boolean) => (v: unknown) => (v === expected ? v : UNSURE),
  /** A union: the first kind that is sure. */
  firstOf:
    (...options: Kind[]) =>
    (v: unknown) => {
      for (const kind of options) {
        const out = kind(v);
        if (out !== UNSURE) return out;
      }
      return UNSURE;
    },
  oneOf:
    (...values: string[]) =>
    (v: unknown) =>
      typeof v === "string" && values.includes(v) ? v : UNSURE,
} as const;

function arrayOf(v: unknown, item: Kind, min: number): unknown {
  if (!Array.isArray(v) || v.length < min) return UNSURE;
  const out: unknown[] = [];
  for (const x of v) {
    const y = item(x);
    if (y === UNSURE) return UNSURE;
    out.push(y);
  }
  return out;
}

/** A plain object from JSON or YAML (zod's record and object copy own keys into a new one). */
function plain(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && !Object.hasOwn(v, "__proto__");
}

function recordOf(v: unknown, item: Kind): unknown {
  if (!plain(v)) return UNSURE;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const y = item(x);
    if (y === UNSURE) return UNSURE;
    out[k] = y;
  }
  return out;
}

/** One object field: its kind and whether it may be absent. */
export interface Field {
  kind: Kind;
  optional: boolean;
}

/** An optional field of the given kind (zod's `.optional()`). */
export const opt = (kind: Kind): Field => ({ kind, optional: true });
/** A required field of the given kind. */
export const req = (kind: Kind): Field => ({ kind, optional: false });

/** The quick check of `z.object(shape)` (unknown keys dropped) or `z.looseObject(shape)`
 *  (kept after the shape's keys): the parsed copy, or UNSURE. */
export function quickObject(
  shape: Record<string, Field>,
  loose: boolean,
): (value: unknown) => unknown {
  const names = Object.keys(shape);
  return (value) => {
    if (!plain(value)) return UNSURE;
    const out: Record<string, unknown> = {};
    for (const name of names) {
      const field = shape[name] as Field;
      if (!Object.hasOwn(value, name)) {
        if (!field.optional) return UNSURE;
        continue;
      }
      const v = value[name];
      // An explicit undefined (never in JSON) is left to zod.
      if (v === undefined) return UNSURE;
      const parsed = field.kind(v);
      if (parsed === UNSURE) return UNSURE;
      out[name] = parsed;
    }
    if (loose) for (const k of Object.keys(value)) if (!Object.hasOwn(shape, k)) out[k] = value[k];
    return out;
  };
}

/** What the readers call: zod's safeParse, answered quickly when the value is plainly valid. */
export interface Checker<T> {
  safeParse(value: unknown): z.ZodSafeParseResult<T>;
}

/** A checker and its two halves (the tests compare them). */
export interface QuickChecker<T> extends Checker<T> {
  quick(value: unknown): unknown;
  schema(): z.ZodType<T>;
}

/** A checker trying `quick` first and the zod schema (built on first need) otherwise. */
export function quickFirst<T>(
  quick: (value: unknown) => unknown,
  schema: () => z.ZodType<T>,
): QuickChecker<T> {
  return {
    quick,
    schema,
    safeParse(value) {
      const data = quick(value);
      if (data !== UNSURE) return { success: true, data: data as T };
      return schema().safeParse(value);
    },
  };
}

/** Whether a quick check was sure (for tests comparing it with zod). */
export function isSure(result: unknown): boolean {
  return result !== UNSURE;
}
