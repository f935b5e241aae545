/**
 * No import circle in the agent (issue 25): a file's dependencies can be read before the file,
 * and a change to one part cannot loop back into itself. Type-only imports count. Nothing is
 * allow-listed; a new circle fails here with its files.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve(__dirname, "../../src");

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

// Type-only imports count too: a circle of types still ties the files together.
const IMPORT = /(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g;

/** Relative imports of a source file, as paths relative to src/ ending in .ts/.tsx. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(IMPORT)].map((m) => {
    const target = resolve(dirname(file), m[1] ?? "");
    const ts = target.replace(/\.js$/, ".ts");
    const tsx = target.replace(/\.js$/, ".tsx");
    return relative(SRC, statSafe(ts) ? ts : statSafe(tsx) ? tsx : target);
  });
}

function statSafe(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Every elementary cycle's smallest witness: one cycle per strongly connected component. */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w === undefined) break;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      const selfLoop = (graph.get(v) ?? []).includes(v);
      if (component.length > 1 || selfLoop) components.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return components.sort((a, b) => (a[0] ?? "").localeCompare(b[0] ?? ""));
}

function graphOf(folders: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const folder of folders) {
    for (const file of filesUnder(join(SRC, folder))) {
      graph.set(relative(SRC, file), importsOf(file));
    }
  }
  return graph;
}

describe("no import circles", () => {
  it("src/agent/ imports in one direction only", () => {
    expect(cyclesOf(graphOf(["agent"]))).toEqual([]);
  });

  it("src/hooks/ imports in one direction only", () => {
    expect(cyclesOf(graphOf(["hooks"]))).toEqual([]);
  });

  it("finds a circle when there is one (the check itself can fail)", () => {
    const g = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts", "d.ts"]],
      ["d.ts", []],
    ]);
    expect(cyclesOf(g)).toEqual([["a.ts", "b.ts", "c.ts"]]);
  });
});
