/**
 * The corpus of real-world hook kinds, one table per dialect: each fixture project is fired
 * through the built `keel hooks test … --json` and checked for what a user would observe
 * (decision, reason, rewritten input, context, files the hook wrote). Add a hook = add an entry.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { CASES } from "./cases/index.js";
import { type CorpusCase, corpusProject, fireCase, KEEL_BIN, trust } from "./harness.js";

function resolveFile(c: { project: string; home: string }, rel: string): string {
  return rel.startsWith("~/") ? join(c.home, rel.slice(2)) : join(c.project, rel);
}

async function check(c: CorpusCase): Promise<void> {
  const p = corpusProject(c.dialect, c.fixture, c.env);
  try {
    const setup = typeof c.setup === "function" ? c.setup(p.project) : c.setup;
    for (const [rel, content] of Object.entries(setup ?? {})) {
      const path = resolveFile(p, rel);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
    }
    await trust(p);
    const r = await fireCase(c, p);
    const e = c.expect;
    const seen = `exit ${r.code}\n${JSON.stringify(r.json, null, 1)}\nstderr: ${r.stderr}`;
    if (e.outcomes === undefined)
      expect(r.json.runs.length, `no hook ran:\n${seen}`).toBeGreaterThan(0);
    expect({ exit: r.code, decision: r.json.decision }, seen).toEqual({
      exit: e.exit,
      decision: e.decision,
    });
    for (const part of e.reason ?? []) expect(r.json.reason ?? "", seen).toContain(part);
    if (e.updatedInput !== undefined) expect(r.json.updatedInput, seen).toEqual(e.updatedInput);
    for (const part of e.context ?? [])
      expect(r.json.additionalContext ?? "", seen).toContain(part);
    if (e.noContext) expect(r.json.additionalContext, seen).toBeNull();
    if (e.systemMessage !== undefined) {
      expect(r.json.systemMessages.join("\n"), seen).toContain(e.systemMessage);
    }
    if (e.continue !== undefined) expect(r.json.continue, seen).toBe(e.continue);
    if (e.outcomes !== undefined)
      expect(
        r.json.runs.map((x) => x.outcome),
        seen,
      ).toEqual(e.outcomes);
    for (const [rel, parts] of Object.entries(e.files ?? {})) {
      const path = resolveFile(p, rel);
      expect(existsSync(path), `${rel} was not written\n${seen}`).toBe(true);
      const text = readFileSync(path, "utf8");
      for (const part of parts) expect(text, rel).toContain(part);
    }
    for (const [rel, content] of Object.entries(e.exactFiles ?? {})) {
      expect(readFileSync(resolveFile(p, rel), "utf8"), rel).toBe(content);
    }
  } finally {
    p.dispose();
  }
}

describe("hook corpus: keel hooks test", () => {
  beforeAll(() => {
    // The corpus runs the built CLI, as users do; `npm test` builds first.
    if (!existsSync(join(KEEL_BIN, "..", "..", "dist")))
      throw new Error("run `npm run build` first");
  });
  const dialects = [...new Set(CASES.map((c) => c.dialect))];
  for (const dialect of dialects) {
    describe.concurrent(dialect, () => {
      for (const c of CASES.filter((x) => x.dialect === dialect)) {
        const title = `${c.fixture}: ${c.name} (mirrors ${c.mirrors})`;
        if (c.todo !== undefined) it.todo(`${title} — TODO: ${c.todo}`);
        else if (c.fails !== undefined)
          it.fails(`${title} — KNOWN BUG: ${c.fails}`, () => check(c), 60_000);
        else it(title, () => check(c), 60_000);
      }
    });
  }
});
