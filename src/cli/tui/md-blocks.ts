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
}

/** An empty buffer. */
export const EMPTY_BLOCK: BlockBuffer = { lines: [], fence: null };

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const SINGLE_LINE_BLOCK = /^ {0,3}(#{1,6}(\s|$)|([-*_])(\s*\3){2,}\s*$)/;

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
): { buf: BlockBuffer; done: string[]; blank: boolean } {
  if (buf.fence !== null) {
    const lines = [...buf.lines, line];
    if (closes(buf.fence, line)) {
      return { buf: EMPTY_BLOCK, done: [lines.join("\n")], blank: false };
    }
    if (lines.length - 1 < maxCodeLines) return { buf: { ...buf, lines }, done: [], blank: false };
    const chunk = bufferText({ lines, fence: buf.fence });
    return { buf: { lines: [buf.fence], fence: buf.fence }, done: [chunk], blank: false };
  }
  const done: string[] = buf.lines.length > 0 ? [buf.lines.join("\n")] : [];
  if (line.trim() === "") return { buf: EMPTY_BLOCK, done, blank: true };
  if (FENCE.test(line)) return { buf: { lines: [line], fence: line }, done, blank: false };
  if (SINGLE_LINE_BLOCK.test(line)) {
    return { buf: EMPTY_BLOCK, done: [...done, line], blank: false };
  }
  return { buf: { lines: [...buf.lines, line], fence: null }, done: [], blank: false };
}

/** Everything buffered (and the partial line) as final blocks: the answer stopped here. */
export function flushBuffer(buf: BlockBuffer, partial = ""): string[] {
  if (buf.lines.length === 0 && partial.trim() === "") return [];
  if (buf.fence !== null && buf.lines.length <= 1 && partial === "") return [];
  return [bufferText(buf, partial)];
}
