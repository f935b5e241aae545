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
 * One driver process (test/corpus/batch-driver.mjs): runs the entries it is given one after
 * another, each result as soon as it is run. Ending early fails what it had not answered, with
 * what the process printed.
 */
export class CliDriver {
  private readonly child: ChildProcess;
  private readonly waiting = new Map<
    number,
    { resolve(r: CliRun[]): void; reject(e: Error): void }
  >();
  private next = 0;
  private output = "";
  private finishing = false;

  constructor(env: NodeJS.ProcessEnv) {
    // The entries' own environments are set inside; this one only starts it.
    this.child = fork(DRIVER, [], { env, execArgv: [], stdio: ["ignore", "pipe", "pipe", "ipc"] });
    this.child.stdout?.on("data", (d) => (this.output += d));
    this.child.stderr?.on("data", (d) => (this.output += d));
    this.child.on("message", (m: { id: number; results: CliRun[] }) => {
      this.waiting.get(m.id)?.resolve(m.results);
      this.waiting.delete(m.id);
      if (this.finishing && this.waiting.size === 0) this.finish();
    });
    this.child.on("exit", (code, signal) => {
      for (const w of this.waiting.values())
        w.reject(new Error(`batch driver ended (${signal ?? code}) first:\n${this.output}`));
      this.waiting.clear();
    });
  }

  /** Queues the entries; one promise each, settled as the driver runs it. */
  run(entries: BatchEntry[]): Array<Promise<CliRun[]>> {
    const cases = entries.map((e) => ({
      id: this.next++,
      cwd: e.project.project,
      env: e.project.env,
      runs: e.runs,
    }));
    const results = cases.map(
      ({ id }) =>
        new Promise<CliRun[]>((resolve, reject) => this.waiting.set(id, { resolve, reject })),
    );
    // Settled promises nobody awaits yet (a test still queued) must not count as unhandled.
    for (const r of results) r.catch(() => {});
    this.child.send({ checkout: CHECKOUT, cases });
    return results;
  }

  /** Lets the driver end once it has answered what it was given (it exits by itself then). */
  finish(): void {
    this.finishing = true;
    if (this.waiting.size === 0 && this.child.connected) this.child.disconnect();
  }

  /** Kills the driver if it still runs and resolves once it has exited. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((done) => this.child.once("exit", done));
    this.child.kill("SIGKILL");
    await exited;
  }
}

/**
 * Runs `entries` spread over `processes` driver processes (entry i in process i mod n, so each
 * process runs its share in the order vitest starts the tests).
 */
export function runBatch(entries: BatchEntry[], processes: number): Batch {
  const results: Array<Promise<CliRun[]>> = [];
  const drivers: CliDriver[] = [];
  for (let n = 0; n < Math.min(processes, entries.length); n++) {
    const mine = entries.map((e, at) => ({ e, at })).filter(({ at }) => at % processes === n);
    const driver = new CliDriver(mine[0]!.e.project.env);
    driver.run(mine.map(({ e }) => e)).forEach((r, i) => {
      results[mine[i]!.at] = r;
    });
    driver.finish();
    drivers.push(driver);
  }
  return { results, stop: async () => void (await Promise.all(drivers.map((d) => d.stop()))) };
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

/** `keel hooks trust` for the project in `driver`; throws with the CLI's words if it fails. */
export async function trustIn(driver: CliDriver, p: CorpusProject): Promise<void> {
  const [runs] = driver.run([{ project: p, runs: [["hooks", "trust", "--cwd", p.project]] }]);
  const [r] = await runs!;
  if (r?.code !== 0)
    throw new Error(`keel hooks trust failed (${r?.code}): ${r?.stderr}${r?.stdout}`);
}
