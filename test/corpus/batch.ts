/**
 * Many corpus cases through a few Node processes instead of two built-CLI starts each: each
 * process (test/corpus/batch-driver.mjs) runs its cases' `keel hooks trust` and `keel hooks test
 * … --json` one after another through the built program's `main`, the function bin/keel.js
 * hands those commands to, in the case's environment and directory. A case's result arrives as
 * soon as its process has run it. test/corpus/hooks-test.test.ts still fires one case per dialect
 * through bin/keel.js itself, and checks that the two ways answer alike.
 */
import { type ChildProcess, fork } from "node:child_process";
import { join } from "node:path";
import {
  CHECKOUT,
  type CorpusCase,
  type CorpusProject,
  type HooksTestResult,
  hooksTestArgs,
  readHooksTest,
} from "./harness.js";

/** What one command printed and its exit status. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** A case ready to run: its temp project (set up) and the argument lists to run in it. */
export interface BatchEntry {
  project: CorpusProject;
  runs: string[][];
}

/** A batch in flight: each entry's results by index, and a way to stop what is left. */
export interface Batch {
  results: Array<Promise<CliRun[]>>;
  /** Kills the drivers still running and resolves once they have exited. */
  stop(): Promise<void>;
}

const DRIVER = join(__dirname, "batch-driver.mjs");

/**
 * Runs `entries` spread over `processes` driver processes (entry i in process i mod n, so each
 * process runs its share in the order vitest starts the tests). A process that dies fails the
 * entries it had not answered, with what it printed.
 */
export function runBatch(entries: BatchEntry[], processes: number): Batch {
  const settle: Array<{ resolve(r: CliRun[]): void; reject(e: Error): void }> = [];
  const results = entries.map(
    () => new Promise<CliRun[]>((resolve, reject) => settle.push({ resolve, reject })),
  );
  // Settled promises nobody awaits yet (a test still queued) must not count as unhandled.
  for (const r of results) r.catch(() => {});
  const children: ChildProcess[] = [];
  for (let n = 0; n < Math.min(processes, entries.length); n++) {
    const mine = entries.map((e, id) => ({ e, id })).filter(({ id }) => id % processes === n);
    const child = fork(DRIVER, [], {
      // The cases' own environments are set inside; this is only the driver's start.
      env: mine[0]!.e.project.env,
      execArgv: [],
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    });
    let output = "";
    child.stdout?.on("data", (d) => (output += d));
    child.stderr?.on("data", (d) => (output += d));
    const open = new Set(mine.map(({ id }) => id));
    child.on("message", (m: { id: number; results: CliRun[] }) => {
      open.delete(m.id);
      settle[m.id]!.resolve(m.results);
    });
    child.on("exit", (code, signal) => {
      for (const id of open)
        settle[id]!.reject(
          new Error(`batch driver ended (${signal ?? code}) before this case:\n${output}`),
        );
    });
    child.send({
      checkout: CHECKOUT,
      cases: mine.map(({ e, id }) => ({
        id,
        cwd: e.project.project,
        env: e.project.env,
        runs: e.runs,
      })),
    });
    children.push(child);
  }
  return {
    results,
    stop: async () => {
      const running = children.filter((c) => c.exitCode === null && c.signalCode === null);
      const exited = running.map((c) => new Promise((done) => c.once("exit", done)));
      for (const child of running) child.kill("SIGKILL");
      await Promise.all(exited);
    },
  };
}

/** The argument lists of a case: `keel hooks trust`, then `keel hooks test … --json`. */
export function caseRuns(c: CorpusCase, p: CorpusProject): string[][] {
  return [["hooks", "trust", "--cwd", p.project], hooksTestArgs(c, p)];
}

/** `keel hooks test --json`'s result from a case's two runs (trust's failure thrown as trust() does). */
export function testResult(runs: CliRun[]): HooksTestResult {
  const [trust, test] = runs;
  if (trust === undefined || trust.code !== 0 || test === undefined)
    throw new Error(`keel hooks trust failed (${trust?.code}): ${trust?.stderr}${trust?.stdout}`);
  return readHooksTest(test);
}
