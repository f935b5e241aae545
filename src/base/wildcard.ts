/**
 * A pattern where `*` spans any text (newlines too) and every other character is itself, matched
 * without a backtracking RegExp. Permission rules (`Bash(git * push * --force*)`), hooks' `if`
 * conditions and a command's `allowed-tools` are written by people but matched against text the
 * model writes: `^git .* push .* --force.*$` as a JS RegExp backtracks O(n^k) on a 300 KB
 * `git push push push …` and blocks the event loop, SIGTERM included (attacks6/32, 34). Here each
 * piece between stars is found once, leftmost, after the one before it: O(n·m) at worst.
 */

/** Whether `text` matches `pattern` whole (`*` spans anything, including nothing). */
export function wildcardMatch(pattern: string, text: string): boolean {
  return wildcardMatcher(pattern)(text);
}

/** `pattern` compiled once: a test of whole texts (`*` spans anything, including nothing). */
export function wildcardMatcher(pattern: string): (text: string) => boolean {
  const pieces = pattern.split("*");
  if (pieces.length === 1) return (text) => text === pattern;
  const first = pieces[0] ?? "";
  const last = pieces[pieces.length - 1] ?? "";
  const middle = pieces.slice(1, -1).filter((p) => p !== "");
  return (text) => {
    if (text.length < first.length + last.length) return false;
    if (!text.startsWith(first) || !text.endsWith(last)) return false;
    // Leftmost is always best: any match that places a piece later could place it here.
    const end = text.length - last.length;
    let at = first.length;
    for (const piece of middle) {
      const found = text.indexOf(piece, at);
      if (found < 0 || found + piece.length > end) return false;
      at = found + piece.length;
    }
    return true;
  };
}
