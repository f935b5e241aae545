/**
 * A line diff in the `structuredPatch` shape Claude Code puts in its Write and Edit tool
 * responses (jsdiff's hunks: `{oldStart, oldLines, newStart, newLines, lines}` with lines
 * prefixed " ", "-", "+", 3 lines of context). The changed region is found by trimming the
 * common leading and trailing lines, which is exact for one contiguous change (every Edit
 * of one occurrence); several separate changes come out as one hunk spanning them.
 */

/** One hunk of a structured patch. */
export interface PatchHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

const CONTEXT = 3;

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** The hunks turning `before` into `after` (empty when they are equal). */
export function structuredPatch(before: string, after: string): PatchHunk[] {
  const a = splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) {
    tail++;
  }
  const removed = a.slice(head, a.length - tail);
  const added = b.slice(head, b.length - tail);
  if (removed.length === 0 && added.length === 0) return [];
  const before3 = Math.min(CONTEXT, head);
  const after3 = Math.min(CONTEXT, tail);
  const lines = [
    ...a.slice(head - before3, head).map((l) => ` ${l}`),
    ...removed.map((l) => `-${l}`),
    ...added.map((l) => `+${l}`),
    ...a.slice(a.length - tail, a.length - tail + after3).map((l) => ` ${l}`),
  ];
  const oldLines = before3 + removed.length + after3;
  const newLines = before3 + added.length + after3;
  return [
    {
      oldStart: oldLines === 0 ? head : head - before3 + 1,
      oldLines,
      newStart: newLines === 0 ? head : head - before3 + 1,
      newLines,
      lines,
    },
  ];
}
