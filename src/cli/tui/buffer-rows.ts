/**
 * The prompt buffer laid out in screen rows: each line wrapped to the width at word boundaries,
 * its continuation rows indented like the line itself. The prompt draws exactly these rows, so
 * a long paste never wraps on its own, stays inside the screen and keeps its indentation.
 */
import { charWidth } from "./format.js";

/** One screen row of the buffer: text offsets [start, end) and the indent it is drawn with. */
export interface BufferRow {
  /** Index of the logical line. */
  line: number;
  start: number;
  end: number;
  /** Columns of hanging indent (continuation rows only). */
  indent: number;
  /** The row is the last of its line (a cursor at `end` sits on it). */
  last: boolean;
}

/** Splits `text` into rows of at most `width` columns. */
export function bufferRows(text: string, width: number): BufferRow[] {
  const max = Math.max(4, width);
  const rows: BufferRow[] = [];
  let offset = 0;
  for (const [line, content] of text.split("\n").entries()) {
    const lead = /^[ ]*/.exec(content)?.[0].length ?? 0;
    // A deep indent still leaves at least half the row for text.
    const indent = Math.min(lead, Math.floor(max / 2));
    let start = 0;
    let first = true;
    do {
      const room = first ? max : max - indent;
      const end = breakAt(content, start, room);
      rows.push({
        line,
        start: offset + start,
        end: offset + end,
        indent: first ? 0 : indent,
        last: false,
      });
      start = end;
      // The space a row broke at belongs to the row before it.
      first = false;
    } while (start < content.length);
    const lastRow = rows[rows.length - 1];
    if (lastRow) lastRow.last = true;
    offset += content.length + 1;
  }
  return rows;
}

/** Where a row that starts at `start` and may take `room` columns ends. */
function breakAt(text: string, start: number, room: number): number {
  let used = 0;
  let i = start;
  let lastSpace = -1;
  while (i < text.length) {
    const cp = text.codePointAt(i) ?? 0;
    const w = charWidth(cp);
    const size = cp > 0xffff ? 2 : 1;
    // Leave a column for the cursor block at the end of a full row.
    if (used + w > room - 1 && i > start) break;
    if (text[i] === " ") lastSpace = i;
    used += w;
    i += size;
  }
  if (i >= text.length) return text.length;
  // Break after the last space of the row when there is one past the indent.
  return lastSpace > start ? lastSpace + 1 : i;
}
