/**
 * Hooks that are configured but will not run because their file or their definition is broken:
 * said at start-up and after /hooks reload, so a typo in a settings file is not silently a hook
 * that never fires.
 */
import { homedir } from "node:os";
import type { HookListing } from "../../hooks/types.js";
import { displayPath } from "../format/text.js";

/** One line per error (file first, then inactive hooks), at most `max`, then a pointer to /hooks. */
export function hookProblemLines(
  listing: HookListing,
  opts: { projectDir: string; max?: number },
): string[] {
  const where = (path: string, line?: number) =>
    `${displayPath(path, { base: opts.projectDir, home: homedir() })}${line !== undefined ? `:${line}` : ""}`;
  const lines: string[] = [];
  // Every error of the listing, file-level then per hook: the same errors `keel hooks validate`
  // and `keel hooks trust` count (missing executables included), so the counts agree.
  for (const p of listing.problems) {
    if (p.severity === "error")
      lines.push(`hooks from ${where(p.path, p.line)} not loaded: ${p.message}`);
  }
  for (const h of listing.hooks) {
    const errors = h.problems.filter((p) => p.severity === "error");
    const at = where(h.source.path, h.location?.line);
    if (!h.active) {
      lines.push(`${h.event} hook in ${at} will not run: ${errors[0]?.message ?? "inactive"}`);
      continue;
    }
    for (const p of errors) lines.push(`${h.event} hook in ${at}: ${p.message}`);
  }
  const max = opts.max ?? 3;
  if (lines.length <= max) return lines;
  return [
    ...lines.slice(0, max),
    `… ${lines.length - max} more hook problem(s): /hooks lists them`,
  ];
}
