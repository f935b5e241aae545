/**
 * The order vitest starts test files in (vitest.config.ts, sequence.sequencer). With three
 * workers the suite ends when its last file does: a long file started last is a long tail.
 * vitest's own order puts a file it has timed before by its last duration and an untimed one by
 * its size, and a fresh checkout has no timings: test/corpus/hooks-test.test.ts, the longest
 * file, is one of the smallest and started near the end. So the files known to be slow start
 * first (their order from CI logs). Each project's files stay together (a shared worker is
 * reused only for the next file of its own project), the projects whose files are slowest first.
 * Order changes only timing: every file's verdict is its own (test/helpers/leak-guard.ts).
 */
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** The projects of vitest.config.ts, the one with the longest files first. */
const PROJECTS = ["shared", "isolated", "unit"];

/** The slowest files in CI (per-file durations, 3 workers), slowest first. */
export const SLOW_FIRST = [
  "test/corpus/hooks-test.test.ts",
  "test/e2e/tui.test.ts",
  "test/corpus/run.test.ts",
  "test/e2e/tui-first-hour.test.ts",
  "test/security/grep-redos.test.ts",
  "test/security/audit-spawned.test.ts",
  "test/e2e/tui-start.test.ts",
  "test/cli/run-crash.test.ts",
  "test/e2e/tui-approval.test.ts",
  "test/hooks/process.test.ts",
  "test/security/audit-attacks.test.ts",
  "test/cli/typed-mentions.test.ts",
  "test/cli/plugins-built.test.ts",
  "test/cli/acp/acp.test.ts",
  "test/cli/run-deep-args.test.ts",
  "test/e2e/tui-telemetry.test.ts",
  "test/e2e/tui-elicitation.test.ts",
  "test/telemetry/acp-telemetry.test.ts",
];

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const project = (s: TestSpecification) => {
      const at = PROJECTS.indexOf(s.project.name);
      return at === -1 ? PROJECTS.length : at;
    };
    const slow = (s: TestSpecification) => {
      const at = SLOW_FIRST.indexOf(relative(s.project.config.root, s.moduleId));
      return at === -1 ? SLOW_FIRST.length : at;
    };
    return base
      .map((spec, at) => ({ spec, at }))
      .sort(
        (a, b) => project(a.spec) - project(b.spec) || slow(a.spec) - slow(b.spec) || a.at - b.at,
      )
      .map((x) => x.spec);
  }
}
