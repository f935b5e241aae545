/**
 * A line diff for approval prompts: which lines a write or an edit removes, adds and keeps, and
 * the changed lines with a little context around them. Exact for the sizes a prompt shows; for
 * very large inputs the middle degrades to "all removed, then all added" (still every line).
 */

/** One line of a diff. */
export interface DiffLine {
  op: "same" | "removed" | "added";
  text: string;
}

/** Beyond this many cells the LCS table is not built (a 2000×2000 middle is about 16 MB). */
const MAX_CELLS = 4_000_000;

/** Every line of `a` and `b` in order: kept, removed or added (longest common subsequence). */
export function diffLines(a: readonly string[], b: readonly string[]): DiffLine[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const same = (text: string): DiffLine => ({ op: "same", text });
  const head = a.slice(0, start).map(same);
  const tail = a.slice(endA).map(same);
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  return [...head, ...diffMiddle(midA, midB), ...tail];
}

function diffMiddle(a: readonly string[], b: readonly string[]): DiffLine[] {
  const removed = (text: string): DiffLine => ({ op: "removed", text });
  const added = (text: string): DiffLine => ({ op: "added", text });
  if (a.length === 0 || b.length === 0 || (a.length + 1) * (b.length + 1) > MAX_CELLS) {
    return [...a.map(removed), ...b.map(added)];
  }
  const cols = b.length + 1;
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
  const lcs = new Uint32Array((a.length + 1) * cols);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * cols + j] =
        a[i] === b[j]
          ? (lcs[(i + 1) * cols + j + 1] ?? 0) + 1
          : Math.max(lcs[(i + 1) * cols + j] ?? 0, lcs[i * cols + j + 1] ?? 0);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ op: "same", text: a[i] as string });
      i++;
      j++;
    } else if ((lcs[(i + 1) * cols + j] ?? 0) >= (lcs[i * cols + j + 1] ?? 0)) {
      out.push(removed(a[i] as string));
      i++;
    } else {
      out.push(added(b[j] as string));
      j++;
    }
  }
  return [...out, ...a.slice(i).map(removed), ...b.slice(j).map(added)];
}

/** A diff with unchanged runs cut to `context` lines around each change. */
export type Hunked = DiffLine | { op: "gap"; count: number };

/** Keeps the changed lines and `context` unchanged lines on each side; the rest become gaps. */
export function withContext(lines: readonly DiffLine[], context: number): Hunked[] {
  const near = new Array<boolean>(lines.length).fill(false);
  lines.forEach((line, i) => {
    if (line.op === "same") return;
    for (let k = Math.max(0, i - context); k <= Math.min(lines.length - 1, i + context); k++) {
      near[k] = true;
    }
  });
  const out: Hunked[] = [];
  let gap = 0;
  lines.forEach((line, i) => {
    if (near[i]) {
      if (gap > 0) out.push({ op: "gap", count: gap });
      gap = 0;
      out.push(line);
    } else gap++;
  });
  if (gap > 0) out.push({ op: "gap", count: gap });
  return out;
}
