/**
 * Globs in src/ are matched only through base/safe-glob.ts: picomatch's own matcher runs a
 * backtracking RegExp, and a pattern from the model or a repository (`*a*a…*b`) pins the CPU
 * with the event loop blocked (attacks6/17, 18). A new direct use fails here until it goes
 * through safeGlob.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = join(import.meta.dirname, "..", "..", "src");
/** The one file that may load picomatch (it parses globs there; linear-regex.ts runs them). */
const ALLOWED = ["base/safe-glob.ts"];
const USES = /["'](picomatch|minimatch|micromatch|glob-to-regexp)["']/;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|tsx|js|mjs|cjs)$/.test(name)) out.push(path);
  }
  return out;
}

describe("glob matching in src/", () => {
  it("loads picomatch (or another glob library) only in base/safe-glob.ts", () => {
    const users = sourceFiles(SRC)
      .filter((path) => USES.test(readFileSync(path, "utf8")))
      .map((path) => relative(SRC, path).split("\\").join("/"));
    expect(users).toEqual(ALLOWED);
  });

  it("the pattern catches an import and a dynamic import", () => {
    expect(USES.test('import picomatch from "picomatch";')).toBe(true);
    expect(USES.test('await import("minimatch")')).toBe(true);
  });
});
