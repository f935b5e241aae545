/**
 * Glob matching for every pattern that comes from the model (the glob tool, grep's `glob`) or
 * from a repository (hook `if:` conditions, permission rules, test runners' patterns). picomatch
 * turns a glob into a JavaScript RegExp, and V8 runs that by backtracking: `*a*a*a…*b` against
 * a long file name takes minutes and blocks the event loop, so not even SIGTERM gets through.
 * Here picomatch still parses the glob (so its syntax and meaning stay exactly picomatch's), but
 * its regex is run by linear-regex.ts, which takes time linear in the path. Calling picomatch
 * directly elsewhere in src/ is refused by test/security/glob-sites.test.ts.
 */
import picomatch from "picomatch";
import { type LinearRegex, linearRegex } from "./linear-regex.js";

/** The picomatch options Keel uses. */
export interface SafeGlobOptions {
  dot?: boolean;
  basename?: boolean;
  nocase?: boolean;
}

/**
 * A matcher for `pattern` (or any of `patterns`) that answers as `picomatch(pattern, options)`
 * does. Throws an Error naming the pattern when picomatch or the linear matcher refuses it.
 */
export function safeGlob(
  pattern: string | readonly string[],
  options: SafeGlobOptions = {},
): (path: string) => boolean {
  if (typeof pattern !== "string") {
    const each = pattern.map((p) => safeGlob(p, options));
    return (path) => each.some((isMatch) => isMatch(path));
  }
  // As picomatch's index.js: `windows` defaults to the platform (it changes the regex).
  const opts = { ...options, windows: process.platform === "win32" };
  let regex: LinearRegex;
  try {
    const re = picomatch.makeRe(pattern, opts);
    regex = linearRegex(re.source, re.flags);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new Error(`glob pattern ${JSON.stringify(pattern)} cannot be used: ${why}`);
  }
  // picomatch.test: an empty path never matches, the pattern itself always does, and with
  // `basename` the last non-empty segment is what is matched.
  return (path) => {
    if (path === "") return false;
    if (path === pattern) return true;
    return regex.test(options.basename ? lastSegment(path, opts.windows) : path);
  };
}

/** picomatch's utils.basename. */
function lastSegment(path: string, windows: boolean): string {
  const segs = path.split(windows ? /[\\/]/ : "/");
  const last = segs[segs.length - 1] as string;
  return last === "" ? (segs[segs.length - 2] as string) : last;
}
