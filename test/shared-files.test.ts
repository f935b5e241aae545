/**
 * The files of the "shared" project (test/shared-files.ts) run one after another in a worker:
 * the list must name real files outside the unit list, none may use what the leak guard cannot
 * see or undo (module mocks, fake timers, stubbed globals, a changed cwd), and the guard itself
 * must notice each kind of leftover it compares.
 */
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { leftBehind, processState, settledLeftBehind } from "./helpers/process-state.js";
import { SHARED_FILES } from "./shared-files.js";
import { UNIT_FILES } from "./unit-files.js";

const ROOT = resolve(__dirname, "..");

/** What a shared worker would carry into the next file and the leak guard does not compare. */
const UNGUARDED: Array<[string, RegExp]> = [
  ["vi.mock / vi.doMock (module mocks stay in the shared module graph)", /vi\.(mock|doMock)\b/],
  ["vi.stubEnv / vi.stubGlobal", /vi\.(stubEnv|stubGlobal)\b/],
  ["fake timers", /useFakeTimers/],
  ["globalThis", /globalThis/],
  ["process.chdir", /process\.chdir\b/],
];

describe("test/shared-files.ts", () => {
  it("lists existing test files, each once, none of them a unit file", () => {
    for (const file of SHARED_FILES) expect(existsSync(join(ROOT, file)), file).toBe(true);
    expect(new Set(SHARED_FILES).size).toBe(SHARED_FILES.length);
    expect(SHARED_FILES.filter((f) => UNIT_FILES.includes(f))).toEqual([]);
  });

  it("lists no file that uses what the leak guard cannot see", () => {
    const offences: string[] = [];
    for (const file of SHARED_FILES) {
      const text = readFileSync(join(ROOT, file), "utf8");
      for (const [what, pattern] of UNGUARDED)
        if (pattern.test(text)) offences.push(`${file}: ${what}`);
    }
    expect(offences).toEqual([]);
  });
});

describe("the leak guard (test/helpers/process-state.ts)", () => {
  it("sees a changed variable, exit code, listener, replaced stdout and an open server", async () => {
    const before = processState();
    const savedExit = process.exitCode;
    const savedWrite = process.stdout.write;
    const onSignal = () => {};
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    process.env.KEEL_LEAK_GUARD_PROBE = "1";
    process.exitCode = 3;
    process.on("SIGHUP", onSignal);
    process.stdout.write = (() => true) as typeof process.stdout.write;
    let left: string[];
    try {
      left = leftBehind(before, processState());
    } finally {
      process.stdout.write = savedWrite;
      process.off("SIGHUP", onSignal);
      process.exitCode = savedExit;
      delete process.env.KEEL_LEAK_GUARD_PROBE;
      await new Promise((r) => server.close(r));
    }
    expect(left).toEqual([
      "process.env.KEEL_LEAK_GUARD_PROBE changed",
      "process.exitCode undefined -> 3",
      '1 more process "SIGHUP" listener(s)',
      "process.stdout.write left replaced",
      "1 TCPServerWrap handle(s) left open (a server or child process)",
    ]);
  });

  it("sees nothing once all of it is put back", async () => {
    const before = processState();
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    await new Promise((r) => server.close(r));
    process.env.KEEL_LEAK_GUARD_PROBE = "1";
    delete process.env.KEEL_LEAK_GUARD_PROBE;
    expect(await settledLeftBehind(before)).toEqual([]);
  });
});
