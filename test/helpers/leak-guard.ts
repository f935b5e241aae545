/**
 * Set-up file of the "shared" project (vitest.config.ts): its files share a worker, so each must
 * leave the process as it found it (test/helpers/process-state.ts says what is compared). A file
 * that leaks fails itself, after its tests, instead of making a later file's verdict depend on
 * the order the files ran in.
 */
import { afterAll, beforeAll } from "vitest";
import { type ProcessState, processState, settledLeftBehind } from "./process-state.js";

let before: ProcessState;
beforeAll(() => {
  before = processState();
});
afterAll(async () => {
  const left = await settledLeftBehind(before);
  if (left.length > 0)
    throw new Error(
      `this file left process-wide state behind for the next file in its worker:\n  ${left.join("\n  ")}`,
    );
});
