/**
 * Hook problems said at start-up and after /hooks reload, so a typo in a settings file is not
 * silently a hook that never fires. The lines are `keel hooks validate`'s (and `keel hooks
 * trust`'s), errors and warnings alike, so every place names the same problems.
 */
import { homedir } from "node:os";
import type { HookListing } from "../../hooks/types.js";
import { problemLine } from "../format/hook-problem.js";

/** One line per problem of the listing (errors first), at most `max`, then a pointer. */
export function hookProblemLines(
  listing: HookListing,
  opts: { projectDir: string; max?: number },
): string[] {
  const ctx = { base: opts.projectDir, home: homedir() };
  const problems = [
    ...listing.allProblems.filter((p) => p.severity === "error"),
    ...listing.allProblems.filter((p) => p.severity !== "error"),
  ];
  const lines = problems.map((p) => problemLine(p, ctx));
  const max = opts.max ?? 3;
  if (lines.length <= max) return lines;
  return [
    ...lines.slice(0, max),
    `… ${lines.length - max} more: /hooks lists them (keel hooks validate too)`,
  ];
}
