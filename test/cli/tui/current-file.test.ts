/** The file a write would replace, read for the approval prompt without ever blocking. */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { readCurrentFile } from "../../../src/cli/tui/current-file.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "keel-current-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it("reads a text file, and says what else a path is", () => {
  writeFileSync(join(dir, "a.txt"), "one\n");
  mkdirSync(join(dir, "sub"));
  expect(readCurrentFile(dir, "a.txt")).toEqual({ kind: "text", text: "one\n" });
  expect(readCurrentFile(dir, "nope.txt")).toEqual({ kind: "missing" });
  expect(readCurrentFile(dir, "sub")).toEqual({ kind: "other", why: "it is a directory" });
});

it("does not block on a FIFO or a device (the prompt would freeze the screen)", () => {
  execFileSync("mkfifo", [join(dir, "pipe")]);
  expect(readCurrentFile(dir, "pipe")).toEqual({ kind: "other", why: "it is not a regular file" });
  expect(readCurrentFile(dir, "/dev/zero")).toEqual({
    kind: "other",
    why: "it is not a regular file",
  });
});
