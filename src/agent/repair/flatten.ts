/**
 * Schema flattening. DeepSeek models silently drop arguments when a tool schema has many leaf
 * properties or deep nesting, so such schemas are shown to the model as one level of dot-path
 * properties (`{"user.profile.name": …}`) and the arguments are re-nested before dispatch.
 */
import type { JsonSchema } from "../../llm/index.js";
import { isPlainObject, setOwn } from "./truncation.js";

/** Schemas with more leaf properties than this are flattened. */
export const FLATTEN_MAX_LEAVES = 10;
/** Schemas nested deeper than this (top-level properties are depth 1) are flattened. */
export const FLATTEN_MAX_DEPTH = 2;

/** A schema as the model should see it, and whether its arguments need `renestArgs`. */
export interface FlattenedSchema {
  parameters: JsonSchema;
  flattened: boolean;
}

/** Flattens `parameters` into dot-path properties when it is too wide or too deep; else returns it unchanged. */
export function flattenToolSchema(parameters: JsonSchema): FlattenedSchema {
  if (!isObjectNode(parameters)) return { parameters, flattened: false };
  const shape = measure(parameters, 1);
  if (shape.dotted) return { parameters, flattened: false };
  if (shape.leaves <= FLATTEN_MAX_LEAVES && shape.depth <= FLATTEN_MAX_DEPTH) {
    return { parameters, flattened: false };
  }
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  collectLeaves(parameters, { prefix: "", required: true, properties, requiredOut: required });
  const { properties: _p, required: _r, ...rest } = parameters;
  const out: JsonSchema = { ...rest, type: "object", properties };
  if (required.length > 0) out.required = required;
  return { parameters: out, flattened: true };
}

/** Rebuilds nested arguments from dot-path keys (a no-op when the schema was not flattened). */
export function renestArgs(
  args: Record<string, unknown>,
  flattened: boolean,
): Record<string, unknown> {
  if (!flattened) return args;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    const path = key.split(".");
    if (path.some((segment) => segment === "")) {
      assign(out, key, value);
      continue;
    }
    let target = out;
    for (const segment of path.slice(0, -1)) {
      const next = Object.hasOwn(target, segment) ? target[segment] : undefined;
      if (isPlainObject(next)) {
        target = next;
      } else {
        const created: Record<string, unknown> = {};
        setOwn(target, segment, created);
        target = created;
      }
    }
    assign(target, path[path.length - 1] ?? key, value);
  }
  return out;
}

/** Sets `key`, merging into an object already there (the model may mix nested and dotted keys). */
function assign(target: Record<string, unknown>, key: string, value: unknown): void {
  const existing = Object.hasOwn(target, key) ? target[key] : undefined;
  if (isPlainObject(existing) && isPlainObject(value)) {
    for (const [k, v] of Object.entries(value)) assign(existing, k, v);
    return;
  }
  setOwn(target, key, value);
}

/** An object schema with named properties (anything else is a leaf). */
function isObjectNode(schema: unknown): schema is JsonSchema & { properties: JsonSchema } {
  if (!isPlainObject(schema) || !isPlainObject(schema.properties)) return false;
  if (schema.type !== undefined && schema.type !== "object") return false;
  return Object.keys(schema.properties).length > 0;
}

function measure(
  node: JsonSchema & { properties: JsonSchema },
  depth: number,
): { leaves: number; depth: number; dotted: boolean } {
  let leaves = 0;
  let maxDepth = depth;
  let dotted = false;
  for (const [name, child] of Object.entries(node.properties)) {
    if (name === "" || name.includes(".")) dotted = true;
    if (isObjectNode(child)) {
      const inner = measure(child, depth + 1);
      leaves += inner.leaves;
      maxDepth = Math.max(maxDepth, inner.depth);
      dotted ||= inner.dotted;
    } else {
      leaves += 1;
    }
  }
  return { leaves, depth: maxDepth, dotted };
}

function collectLeaves(
  node: JsonSchema & { properties: JsonSchema },
  ctx: {
    prefix: string;
    required: boolean;
    properties: Record<string, unknown>;
    requiredOut: string[];
  },
): void {
  const requiredHere = Array.isArray(node.required) ? node.required : [];
  for (const [name, child] of Object.entries(node.properties)) {
    const path = ctx.prefix === "" ? name : `${ctx.prefix}.${name}`;
    const required = ctx.required && requiredHere.includes(name);
    if (isObjectNode(child)) {
      collectLeaves(child, { ...ctx, prefix: path, required });
    } else {
      setOwn(ctx.properties, path, child);
      if (required) ctx.requiredOut.push(path);
    }
  }
}
