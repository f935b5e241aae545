import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // expect.poll waits for something that must happen; its 1 s default made verdicts depend
    // on machine load (the TUI tests under a loaded CI). A deadline, not a delay.
    expect: { poll: { timeout: 10_000 } },
  },
});
