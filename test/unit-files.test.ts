/**
 * The files vitest runs without isolation (test/unit-files.ts) must stay ones that leave nothing
 * process-wide behind: a listed file that starts setting process.env or spying on a global
 * would make another file's verdict depend on which ran first in the shared worker.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { UNIT_FILES } from "./unit-files.js";

const ROOT = resolve(__dirname, "..");

/** What a shared worker would carry from one file into the next. */
const PROCESS_WIDE: Array<[string, RegExp]> = [
  ["process.env", /process\.env/],
  ["vi.spyOn / vi.mock / vi.stub*", /vi\.(spyOn|mock|doMock|stubEnv|stubGlobal)\b/],
  ["fake timers", /useFakeTimers/],
  ["process.exitCode / cwd / umask / listeners", /process\.(exitCode|chdir|umask|on|once)\b/],
  ["process.stdout / stderr / stdin", /process\.(stdout|stderr|stdin)\b/],
  ["globalThis", /globalThis/],
  ["child processes", /node:child_process/],
];

describe("test/unit-files.ts", () => {
  it("lists existing test files, each once", () => {
    for (const file of UNIT_FILES) expect(existsSync(join(ROOT, file)), file).toBe(true);
    expect(new Set(UNIT_FILES).size).toBe(UNIT_FILES.length);
  });

  it("lists only files that touch no process-wide state", () => {
    const offences: string[] = [];
    // This file names the patterns it looks for; it is listed and checked by hand.
    for (const file of UNIT_FILES.filter((f) => f !== "test/unit-files.test.ts")) {
      const text = readFileSync(join(ROOT, file), "utf8");
      for (const [what, pattern] of PROCESS_WIDE) {
        if (pattern.test(text)) offences.push(`${file}: ${what}`);
      }
    }
    expect(offences).toEqual([]);
  });
});
