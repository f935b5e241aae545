import { defineConfig } from "vitest/config";
import { SlowFirstSequencer } from "./test/sequencer.js";
import { SHARED_FILES } from "./test/shared-files.js";
import { UNIT_FILES } from "./test/unit-files.js";

export default defineConfig({
  test: {
    // No `include` here: a project that extends this config would add its own to it.
    // A deadline for a hung test, never a wait: a passing test ends when it is done. 30 s was
    // exceeded by tests that take 1-2 s on a quiet machine when the machine ran at a load of 25
    // (several suites at once on 2 cores); a verdict must not depend on that.
    testTimeout: 120_000,
    hookTimeout: 30_000,
    pool: "forks",
    // vitest's default is one worker less than the cores: ONE on a 2-core machine, so the suite
    // ran file after file while most files wait on processes they started (keel, tmux, hooks,
    // the simulator) rather than compute. Three forks keep two cores busy; a verdict must not
    // depend on how busy the machine is anyway (every wait is a deadline, never a sleep).
    // KEEL_TEST_WORKERS overrides it (e.g. 1 to read one file's output in order).
    maxWorkers: Number(process.env.KEEL_TEST_WORKERS) || 3,
    // expect.poll waits for something that must happen; its 1 s default made verdicts depend
    // on machine load (the TUI tests under a loaded CI). A deadline, not a delay.
    expect: { poll: { timeout: 10_000 } },
    // The slowest files start first, so the run does not end on one long file (test/sequencer.ts).
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        // Files that start no processes and leave no process-wide state behind (test/unit-files.ts
        // says what qualifies) share a worker: a fresh one per file cost ~0.3 s of start-up and
        // module loading each, a quarter of the suite's time for files whose tests take ~10 ms.
        extends: true,
        test: { name: "unit", include: UNIT_FILES, isolate: false },
      },
      {
        // Files that run Keel in-process (the CLI, the agent, the simulator) and put back what
        // they change share a worker too: a fresh worker loaded src/'s module graph again for
        // each, ~3 s of CPU per file (12 such files: 47 s isolated, 12 s shared). The leak
        // guard fails a file that leaves process-wide state behind (test/shared-files.ts).
        extends: true,
        test: {
          name: "shared",
          include: SHARED_FILES,
          isolate: false,
          setupFiles: ["test/helpers/leak-guard.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "isolated",
          include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
          exclude: [...UNIT_FILES, ...SHARED_FILES],
        },
      },
    ],
  },
});
