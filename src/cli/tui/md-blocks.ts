/**
 * Cuts streamed answer text into Markdown blocks as lines complete: a block (paragraph, list,
 * heading, fenced code) becomes static only once it is whole, so `**bold**` across a line break
 * or an open ``` fence never shows half-rendered. A long code block is cut into chunks that each
 * render as code, so the live frame stays small.
 */

/** The lines of the block being built. */
export interface BlockBuffer {
  lines: readonly string[];
  /** The opening fence line while inside fenced code. */
  fence: string | null;
  /**
   * The lines are a table whose first `tableShown` lines (its header and first rows) were shown
   * already: kept so later rows parse as rows of the same table, with the same column widths.
   */
  tableShown?: number;
}

/** An empty buffer. */
export const EMPTY_BLOCK: BlockBuffer = { lines: [], fence: null };

/** A finished block of the answer. */
export interface MdBlock {
  text: string;
  /** Body rows of the text's table already shown above: render only the rows after them. */
  tableRowsShown?: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const SINGLE_LINE_BLOCK = /^ {0,3}(#{1,6}(\s|$)|([-*_])(\s*\3){2,}\s*$)/;
const TABLE_DELIMITER = /^ {0,3}\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

/** A table's header and delimiter lines when `lines` begin a table, else null. */
export function tableHead(lines: readonly string[]): [string, string] | null {
  const [head, delimiter] = lines;
  if (head === undefined || delimiter === undefined || !head.includes("|")) return null;
  const ok = TABLE_DELIMITER.test(delimiter) && delimiter.includes("-") && delimiter.includes("|");
  return ok ? [head, delimiter] : null;
}

/** The buffer as a finished block, or null when it holds nothing new (rows already shown). */
export function blockOf(buf: BlockBuffer, partial = ""): MdBlock | null {
  const shown = buf.tableShown;
  if (shown === undefined) return { text: bufferText(buf, partial) };
  if (buf.lines.length <= shown && partial.trim() === "") return null;
  return { text: bufferText(buf, partial), tableRowsShown: shown - 2 };
}

/** What is left of a block once what it holds was shown: a table's lines, for the next rows. */
export function afterShown(buf: BlockBuffer): BlockBuffer {
  if (buf.fence !== null || tableHead(buf.lines) === null) return EMPTY_BLOCK;
  return { lines: buf.lines, fence: null, tableShown: buf.lines.length };
}

/** The lines of the buffer not shown yet (all but a table's shown header and rows). */
export function unshownLines(buf: BlockBuffer): readonly string[] {
  return buf.lines.slice(buf.tableShown ?? 0);
}

function closes(fence: string, line: string): boolean {
  const open = FENCE.exec(fence)?.[1] ?? "```";
  const m = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
  return m?.[1] !== undefined && m[1][0] === open[0] && m[1].length >= open.length;
}

function closingFor(fence: string): string {
  return FENCE.exec(fence)?.[1] ?? "```";
}

/** The buffer as Markdown that renders on its own (an open fence closed for the moment). */
export function bufferText(buf: BlockBuffer, partial = ""): string {
  const lines = partial === "" ? [...buf.lines] : [...buf.lines, partial];
  if (buf.fence !== null) lines.push(closingFor(buf.fence));
  return lines.join("\n");
}

/**
 * Feeds one complete line. Returns the blocks it finished, the new buffer, and whether a blank
 * line separated what came before from what comes next.
 */
export function feedLine(
  buf: BlockBuffer,
  line: string,
  maxCodeLines = 8,
): { buf: BlockBuffer; done: MdBlock[]; blank: boolean } {
  if (buf.fence !== null) {
    const lines = [...buf.lines, line];
    if (closes(buf.fence, line)) {
      return { buf: EMPTY_BLOCK, done: [{ text: lines.join("\n") }], blank: false };
    }
    if (lines.length - 1 < maxCodeLines) return { buf: { ...buf, lines }, done: [], blank: false };
    const chunk = bufferText({ lines, fence: buf.fence });
    return { buf: { lines: [buf.fence], fence: buf.fence }, done: [{ text: chunk }], blank: false };
  }
  const finished = buf.lines.length > 0 ? blockOf(buf) : null;
  const done: MdBlock[] = finished ? [finished] : [];
  if (line.trim() === "") return { buf: EMPTY_BLOCK, done, blank: true };
  if (FENCE.test(line)) return { buf: { lines: [line], fence: line }, done, blank: false };
  if (SINGLE_LINE_BLOCK.test(line)) {
    return { buf: EMPTY_BLOCK, done: [...done, { text: line }], blank: false };
  }
  return { buf: { ...buf, lines: [...buf.lines, line] }, done: [], blank: false };
}

/** Everything buffered (and the partial line) as final blocks: the answer stopped here. */
export function flushBuffer(buf: BlockBuffer, partial = ""): MdBlock[] {
  if (buf.lines.length === 0 && partial.trim() === "") return [];
  if (buf.fence !== null && buf.lines.length <= 1 && partial === "") return [];
  const block = blockOf(buf, partial);
  return block ? [block] : [];
}
