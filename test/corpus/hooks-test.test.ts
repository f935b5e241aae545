/**
 * The corpus of real-world hook kinds, one table per dialect: each fixture project is fired
 * through the built `keel hooks test … --json` and checked for what a user would observe
 * (decision, reason, rewritten input, context, files the hook wrote). Add a hook = add an entry.
 *
 * The first case of each dialect runs through bin/keel.js, two processes per case, as a user
 * runs it. The others run in a few batch processes (test/corpus/batch.ts) through the built
 * program's `main`, the function bin/keel.js hands these commands to: two CLI starts per case
 * were most of this file's time. The hooks run as real processes either way, and each
 * binary-run case also runs in the batch, which must answer the same.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Batch, caseRuns, runBatch, testResult } from "./batch.js";
import { CASES } from "./cases/index.js";
import {
  type CorpusCase,
  type CorpusProject,
  corpusProject,
  fireCase,
  type HooksTestResult,
  KEEL_BIN,
  trust,
} from "./harness.js";

/** Batch processes: the hooks' own processes wait on each other less with two. */
const BATCH_PROCESSES = 2;

function resolveFile(c: { project: string; home: string }, rel: string): string {
  return rel.startsWith("~/") ? join(c.home, rel.slice(2)) : join(c.project, rel);
}

/** The case's temp project with its set-up files written. */
function prepare(c: CorpusCase): CorpusProject {
  const p = corpusProject(c.dialect, c.fixture, c.env);
  const setup = typeof c.setup === "function" ? c.setup(p.project) : c.setup;
  for (const [rel, content] of Object.entries(setup ?? {})) {
    const path = resolveFile(p, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
  return p;
}

/** What the user observes after the event, checked against the case's expectation. */
function verify(c: CorpusCase, p: CorpusProject, r: HooksTestResult): void {
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
  for (const part of e.context ?? []) expect(r.json.additionalContext ?? "", seen).toContain(part);
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
}

/**
 * A result with the temp project's own folder written as <root> and each hook's duration (the
 * one field that differs run to run) left out, to compare two runs.
 */
function comparable(r: HooksTestResult, p: CorpusProject): unknown {
  return JSON.parse(JSON.stringify(r).replaceAll(p.root, "<root>"), (key, value) =>
    key === "durationMs" ? undefined : value,
  );
}

const runnable = CASES.filter((c) => c.todo === undefined);
const dialects = [...new Set(CASES.map((c) => c.dialect))];
/** The cases bin/keel.js runs: the first of each dialect. */
const viaBinary = new Set(dialects.map((d) => runnable.find((c) => c.dialect === d)));
/** Every case the batch runs (the binary's too, to compare), in the order the tests start. */
const batched = new Map<CorpusCase, { project: CorpusProject; runs: Promise<HooksTestResult> }>();
let batch: Batch | undefined;

describe("hook corpus: keel hooks test", () => {
  beforeAll(() => {
    // The corpus runs the built CLI, as users do; `npm test` builds first.
    if (!existsSync(join(KEEL_BIN, "..", "..", "dist")))
      throw new Error("run `npm run build` first");
    const entries = runnable.map((c) => {
      const project = prepare(c);
      return { c, project, runs: caseRuns(c, project) };
    });
    batch = runBatch(entries, BATCH_PROCESSES);
    entries.forEach(({ c, project }, at) => {
      const runs = batch!.results[at]!.then(testResult);
      runs.catch(() => {});
      batched.set(c, { project, runs });
    });
  });
  afterAll(async () => {
    await batch?.stop();
    for (const { project } of batched.values()) project.dispose();
  });

  async function check(c: CorpusCase): Promise<void> {
    const inBatch = batched.get(c)!;
    const batchResult = await inBatch.runs;
    verify(c, inBatch.project, batchResult);
    if (!viaBinary.has(c)) return;
    const p = prepare(c);
    try {
      await trust(p);
      const r = await fireCase(c, p);
      verify(c, p, r);
      expect(comparable(batchResult, inBatch.project), "the batch answers as bin/keel.js").toEqual(
        comparable(r, p),
      );
    } finally {
      p.dispose();
    }
  }

  for (const dialect of dialects) {
    describe.concurrent(dialect, () => {
      for (const c of CASES.filter((x) => x.dialect === dialect)) {
        const title = `${c.fixture}: ${c.name} (mirrors ${c.mirrors})${viaBinary.has(c) ? " [bin/keel.js]" : ""}`;
        if (c.todo !== undefined) it.todo(`${title} — TODO: ${c.todo}`);
        else if (c.fails !== undefined)
          it.fails(`${title} — KNOWN BUG: ${c.fails}`, () => check(c), 60_000);
        else it(title, () => check(c), 60_000);
      }
    });
  }
});
