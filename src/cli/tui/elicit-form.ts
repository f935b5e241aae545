/**
 * An MCP elicitation request as a form: the fields its `requestedSchema` asks for (MCP's
 * restricted schema: a flat object of strings, numbers, integers, booleans, single-select enums
 * and multi-select enum arrays), and the checks on what the user types. UI-free: the form
 * component (components/elicitation-form.tsx) asks field by field with these.
 */

/** One choice of an enum field. */
export interface FieldOption {
  value: string;
  label: string;
}

/** A field of the form, in the schema's order. */
export interface FormField {
  key: string;
  /** The schema's `title`, else the key. */
  title: string;
  description?: string;
  required: boolean;
  kind: "text" | "number" | "integer" | "boolean" | "choice" | "multi";
  /** `email`, `uri`, `date` or `date-time` for text fields. */
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  options?: FieldOption[];
  /** The server's default, when it is valid for the field. */
  default?: unknown;
}

/** What the form asks, or why it cannot be shown as one. */
export type ParsedForm =
  | { ok: true; fields: FormField[] }
  | { ok: false; reason: string; fields: FormField[] };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** Options from `enum` (+ legacy `enumNames`) or `oneOf`/`anyOf` of `{const, title}`. */
function optionsOf(schema: Json): FieldOption[] | undefined {
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum
      .filter((v): v is string => typeof v === "string")
      .map((value, i) => ({ value, label: str(names[i]) ?? value }));
  }
  const list = Array.isArray(schema.oneOf) ? schema.oneOf : schema.anyOf;
  if (Array.isArray(list)) {
    const out: FieldOption[] = [];
    for (const o of list) {
      if (isObject(o) && typeof o.const === "string")
        out.push({ value: o.const, label: str(o.title) ?? o.const });
    }
    return out.length > 0 ? out : undefined;
  }
  return undefined;
}

/** The form's fields; a property of another shape makes the form unusable when required. */
export function parseForm(schema: Record<string, unknown> | undefined): ParsedForm {
  const props = isObject(schema?.properties) ? schema.properties : {};
  const required = new Set(
    Array.isArray(schema?.required) ? schema.required.filter((k) => typeof k === "string") : [],
  );
  const fields: FormField[] = [];
  const unsupported: string[] = [];
  for (const [key, raw] of Object.entries(props)) {
    if (!isObject(raw)) continue;
    const base = {
      key,
      title: str(raw.title) ?? key,
      ...(str(raw.description) ? { description: str(raw.description) } : {}),
      required: required.has(key),
    };
    const options = optionsOf(raw);
    const items = isObject(raw.items) ? optionsOf(raw.items) : undefined;
    let field: FormField | null = null;
    if (raw.type === "string" && options && options.length > 0) {
      field = { ...base, kind: "choice", options };
    } else if (raw.type === "array" && items && items.length > 0) {
      field = {
        ...base,
        kind: "multi",
        options: items,
        ...(num(raw.minItems) !== undefined ? { minItems: num(raw.minItems) } : {}),
        ...(num(raw.maxItems) !== undefined ? { maxItems: num(raw.maxItems) } : {}),
      };
    } else if (raw.type === "string") {
      field = {
        ...base,
        kind: "text",
        ...(str(raw.format) ? { format: str(raw.format) } : {}),
        ...(num(raw.minLength) !== undefined ? { minLength: num(raw.minLength) } : {}),
        ...(num(raw.maxLength) !== undefined ? { maxLength: num(raw.maxLength) } : {}),
      };
    } else if (raw.type === "number" || raw.type === "integer") {
      field = {
        ...base,
        kind: raw.type,
        ...(num(raw.minimum) !== undefined ? { minimum: num(raw.minimum) } : {}),
        ...(num(raw.maximum) !== undefined ? { maximum: num(raw.maximum) } : {}),
      };
    } else if (raw.type === "boolean") {
      field = { ...base, kind: "boolean" };
    }
    if (field === null) {
      if (base.required) unsupported.push(key);
      continue;
    }
    // A default the field itself would refuse is not offered.
    if ("default" in raw && checkValue(field, raw.default) === null) field.default = raw.default;
    fields.push(field);
  }
  return unsupported.length > 0
    ? {
        ok: false,
        reason: `it asks for ${unsupported.join(", ")} in a shape a form cannot take`,
        fields,
      }
    : { ok: true, fields };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Why a value does not fit the field, or null when it does. */
export function checkValue(field: FormField, value: unknown): string | null {
  switch (field.kind) {
    case "text": {
      if (typeof value !== "string") return "expected text";
      if (field.minLength !== undefined && [...value].length < field.minLength)
        return `at least ${field.minLength} characters`;
      if (field.maxLength !== undefined && [...value].length > field.maxLength)
        return `at most ${field.maxLength} characters`;
      if (field.format === "email" && !EMAIL.test(value)) return "not an email address";
      if (field.format === "uri" && !/^[a-z][a-z0-9+.-]*:/i.test(value))
        return "not a URI (e.g. https://example.com)";
      if (field.format === "date" && (!DATE.test(value) || Number.isNaN(Date.parse(value))))
        return "not a date (YYYY-MM-DD)";
      if (field.format === "date-time" && Number.isNaN(Date.parse(value)))
        return "not a date and time (e.g. 2026-11-23T09:30:00Z)";
      return null;
    }
    case "number":
    case "integer": {
      if (typeof value !== "number" || !Number.isFinite(value)) return "expected a number";
      if (field.kind === "integer" && !Number.isInteger(value)) return "expected a whole number";
      if (field.minimum !== undefined && value < field.minimum) return `at least ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum) return `at most ${field.maximum}`;
      return null;
    }
    case "boolean":
      return typeof value === "boolean" ? null : "expected yes or no";
    case "choice":
      return typeof value === "string" && field.options?.some((o) => o.value === value)
        ? null
        : "not one of the choices";
    case "multi": {
      if (!Array.isArray(value)) return "expected a list of choices";
      if (!value.every((v) => field.options?.some((o) => o.value === v)))
        return "not one of the choices";
      if (field.minItems !== undefined && value.length < field.minItems)
        return `choose at least ${field.minItems}`;
      if (field.maxItems !== undefined && value.length > field.maxItems)
        return `choose at most ${field.maxItems}`;
      return null;
    }
  }
}

/** What one typed answer means for a text, number, integer or boolean field: a value, nothing
 *  (an optional field left empty), or why it is refused. Empty input takes the default. */
export function parseTyped(
  field: FormField,
  text: string,
): { value: unknown } | { skip: true } | { error: string } {
  const t = text.trim();
  if (t === "") {
    if (field.default !== undefined) return { value: field.default };
    return field.required ? { error: "required" } : { skip: true };
  }
  let value: unknown = text;
  if (field.kind === "number" || field.kind === "integer") value = Number(t);
  if (field.kind === "boolean") {
    const yes = ["y", "yes", "true"].includes(t.toLowerCase());
    const no = ["n", "no", "false"].includes(t.toLowerCase());
    if (!yes && !no) return { error: "answer y or n" };
    value = yes;
  }
  const why = checkValue(field, value);
  return why === null ? { value } : { error: why };
}

/** A value as the form shows it back (labels for choices). */
export function showValue(field: FormField, value: unknown): string {
  const label = (v: unknown) => field.options?.find((o) => o.value === v)?.label ?? String(v);
  if (field.kind === "multi" && Array.isArray(value)) return value.map(label).join(", ");
  if (field.kind === "choice") return label(value);
  if (field.kind === "boolean") return value === true ? "yes" : "no";
  return String(value);
}
