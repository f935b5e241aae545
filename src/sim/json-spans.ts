/**
 * Finds the raw text spans of values inside a JSON document that is already known to be valid,
 * so the simulator can record the exact bytes a client sent for `messages` and `tools`.
 */

/** A half-open range [start, end) in the source text. */
export interface Span {
  start: number;
  end: number;
}

/** Spans of each member value of the top-level object (empty when the text is not an object). */
export function topLevelMembers(text: string): Map<string, Span> {
  const members = new Map<string, Span>();
  let i = skipWs(text, 0);
  if (text[i] !== "{") return members;
  i = skipWs(text, i + 1);
  while (i < text.length && text[i] !== "}") {
    const keyEnd = skipValue(text, i);
    const key: unknown = JSON.parse(text.slice(i, keyEnd));
    i = skipWs(text, keyEnd);
    i = skipWs(text, i + 1); // past ':'
    const end = skipValue(text, i);
    if (typeof key === "string") members.set(key, { start: i, end });
    i = skipWs(text, end);
    if (text[i] === ",") i = skipWs(text, i + 1);
  }
  return members;
}

/** Spans of the elements of the array at `span`. */
export function arrayElements(text: string, span: Span): Span[] {
  const out: Span[] = [];
  let i = skipWs(text, span.start);
  if (text[i] !== "[") return out;
  i = skipWs(text, i + 1);
  while (i < span.end && text[i] !== "]") {
    const end = skipValue(text, i);
    out.push({ start: i, end });
    i = skipWs(text, end);
    if (text[i] === ",") i = skipWs(text, i + 1);
  }
  return out;
}

function skipWs(text: string, i: number): number {
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    i++;
  }
  return i;
}

function skipString(text: string, i: number): number {
  i++;
  while (i < text.length) {
    const c = text[i];
    if (c === "\\") i += 2;
    else if (c === '"') return i + 1;
    else i++;
  }
  return i;
}

/** End of the value starting at `i` (iterative, so deep nesting cannot overflow the stack). */
function skipValue(text: string, i: number): number {
  const c = text[i];
  if (c === '"') return skipString(text, i);
  if (c === "{" || c === "[") {
    let depth = 0;
    while (i < text.length) {
      const ch = text[i];
      if (ch === '"') {
        i = skipString(text, i);
        continue;
      }
      if (ch === "{" || ch === "[") depth++;
      else if (ch === "}" || ch === "]") {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return i;
  }
  while (i < text.length && !",}] \n\r\t".includes(text[i] ?? "")) i++;
  return i;
}
