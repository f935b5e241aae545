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

/**
 * The slowest files in CI (per-file durations of the fresh-clone run of 9359872, 3 workers, load
 * 2-5), slowest first; test/corpus/hooks-test.test.ts moved down once its cases ran batched.
 */
export const SLOW_FIRST = [
  "test/corpus/run.test.ts",
  "test/security/audit-spawned.test.ts",
  "test/e2e/tui.test.ts",
  "test/security/trust-runner-config.test.ts",
  "test/e2e/tui-first-hour.test.ts",
  "test/e2e/tui-start.test.ts",
  "test/cli/tui/app.test.tsx",
  "test/corpus/hooks-test.test.ts",
  "test/hooks/process.test.ts",
  "test/e2e/tui-approval.test.ts",
  "test/cli/run-crash.test.ts",
  "test/cli/tui/prompts.test.tsx",
  "test/telemetry/otlp-protocols.test.ts",
  "test/cli/acp/acp.test.ts",
  "test/e2e/tui-telemetry.test.ts",
  "test/agent/mcp.test.ts",
  "test/security/audit-attacks.test.ts",
  "test/mcp/manager.test.ts",
  "test/e2e/tui-elicitation.test.ts",
  "test/security/sanitizer-cli.test.ts",
  "test/agent/permissions/protected-paths.test.ts",
  "test/security/trust-program-defaults.test.ts",
  "test/cli/lazy-start.test.ts",
  "test/telemetry/otlp-export.test.ts",
  "test/cli/run-shell-cwd.test.ts",
  "test/hooks/fast-spawn.test.ts",
  "test/security/trust-bounds.test.ts",
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
