/**
 * Finds tool calls written as plain JSON objects in text: `{name, arguments}`,
 * `{type: "function", function: {name, arguments}}` and `{tool_name, tool_args}`.
 * Only complete, valid JSON objects count: prose is never guessed at. Pure; never throws.
 */

import { jsonDepthExceeded } from "../../base/index.js";
import type { LeakedCall, Span } from "./markup.js";
import { isPlainObject, MAX_ARGUMENT_DEPTH } from "./truncation.js";

/** Objects longer than this are not considered (keeps the scan linear in practice). */
const MAX_OBJECT_CHARS = 200_000;

/** Every JSON object in `text` shaped like a tool call, with where it sits. */
export function findJsonCalls(text: string): Array<{ call: LeakedCall; span: Span }> {
  const found: Array<{ call: LeakedCall; span: Span }> = [];
  // A call object starts with `{` followed by a quoted key.
  const starts = /\{\s*"/g;
  let m: RegExpExecArray | null = starts.exec(text);
  while (m !== null) {
    const start = m.index;
    const end = objectEnd(text, start);
    let next = start + 1;
    if (end > 0) {
      const call = asCall(text.slice(start, end));
      if (call) {
        found.push({ call, span: { start, end } });
        next = end;
      }
    }
    starts.lastIndex = next;
    m = starts.exec(text);
  }
  return found;
}

/** Index just past the `}` balancing the `{` at `start`, or -1. */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  const limit = Math.min(text.length, start + MAX_OBJECT_CHARS);
  for (let i = start; i < limit; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return c === "}" ? i + 1 : -1;
      if (depth < 0) return -1;
    }
  }
  return -1;
}

function asCall(json: string): LeakedCall | null {
  // The arguments sit two levels down at most; deeper text is not read as a call at all, since
  // fromParts re-serializes it recursively (truncation.ts MAX_ARGUMENT_DEPTH says why).
  if (jsonDepthExceeded(json, MAX_ARGUMENT_DEPTH + 2) !== null) return null;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  if (!isPlainObject(value)) return null;
  if (value.type === "function" && isPlainObject(value.function)) {
    return fromParts(value.function.name, value.function.arguments);
  }
  if ("tool_name" in value && "tool_args" in value) {
    return fromParts(value.tool_name, value.tool_args);
  }
  if ("name" in value && "arguments" in value) {
    return fromParts(value.name, value.arguments);
  }
  return null;
}

function fromParts(name: unknown, args: unknown): LeakedCall | null {
  if (typeof name !== "string" || name.trim() === "") return null;
  let text: string;
  if (typeof args === "string") text = args;
  else if (args === undefined || args === null) text = "{}";
  else if (isPlainObject(args)) text = JSON.stringify(args);
  else return null;
  return { name: name.trim(), arguments: text, format: "json", cutValue: false };
}
