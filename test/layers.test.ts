import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve(__dirname, "../src");

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

/** Relative imports of a source file, resolved to paths relative to src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)].map(
    (m) => m[1] ?? "",
  );
  return specs.map((s) => relative(SRC, resolve(dirname(file), s)));
}

// Which top-level src/ folders each layer may import from (besides itself).
const ALLOWED: Record<string, string[]> = {
  base: [],
  hooks: ["base"],
  llm: ["base"],
  tools: ["base"],
  session: ["base"],
  sim: ["llm", "base"],
  mcp: ["tools", "hooks", "base"],
  agent: ["hooks", "llm", "tools", "session", "mcp", "version.js", "base"],
  cli: ["agent", "hooks", "llm", "tools", "session", "sim", "mcp", "version.js", "base"],
};

describe("layering", () => {
  for (const [layer, allowed] of Object.entries(ALLOWED)) {
    it(`src/${layer} imports only from ${allowed.length ? allowed.join(", ") : "itself"}`, () => {
      const bad: string[] = [];
      let dir: string;
      try {
        dir = join(SRC, layer);
        statSync(dir);
      } catch {
        return;
      }
      for (const file of filesUnder(dir)) {
        for (const target of importsOf(file)) {
          const top = target.split("/")[0] ?? "";
          if (top !== layer && !allowed.includes(top)) {
            bad.push(`${relative(SRC, file)} -> ${target}`);
          }
        }
      }
      expect(bad).toEqual([]);
    });
  }

  it("detects a forbidden import (the check itself can fail)", () => {
    const probe = join(SRC, "hooks", "events.ts");
    const found = importsOf(probe);
    expect(found.every((t) => t.startsWith("hooks"))).toBe(true);
    // A synthetic line that must be caught:
    const fake = 'import { x } from "../agent/loop.js";';
    const m = /(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/.exec(fake);
    expect(relative(SRC, resolve(join(SRC, "hooks"), m?.[1] ?? ""))).toBe("agent/loop.js");
  });
});
