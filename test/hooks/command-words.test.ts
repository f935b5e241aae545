/**
 * validate.ts's commandWords: the first words of the command a hook's shell runs first, past
 * the comment and blank lines a multi-line command may open with (docker-agent's own
 * examples/hooks.yaml does), and readShebang's reading of a script's `#!` line.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readShebang } from "../../src/hooks/shebang.js";
import { commandWords } from "../../src/hooks/validate.js";

describe("commandWords", () => {
  it.each([
    ["./guard.sh --strict", ["./guard.sh", "--strict"]],
    ["# read stdin\n\n  # then check\n./guard.sh --strict\necho done", ["./guard.sh", "--strict"]],
    ["# only a comment\n", []],
    ["  # indented comment\npython3 hooks/check.py", ["python3", "hooks/check.py"]],
    // bash rejects it; the shell still runs the lines before the error: comments skipped by hand.
    ["# broken below\nnode hooks/x.mjs\nif then fi (", ["node", "hooks/x.mjs"]],
    ['echo "# not a comment"', ["echo", "# not a comment"]],
  ])("%j → %j", (command, words) => {
    expect(commandWords(command)).toEqual(words);
  });
});

describe("readShebang", () => {
  const dir = mkdtempSync(join(tmpdir(), "keel-shebang-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it("reads the interpreter, the program env looks up, and a CRLF ending", () => {
    expect(readShebang(file("a", "#!/bin/bash -eu\n"))).toEqual({
      interpreter: "/bin/bash",
      carriageReturn: false,
    });
    expect(readShebang(file("b", "#!/usr/bin/env -S deno run --allow-read\n"))).toEqual({
      interpreter: "/usr/bin/env",
      program: "deno",
      carriageReturn: false,
    });
    expect(readShebang(file("c", "#!/bin/sh\r\necho\r\n"))?.carriageReturn).toBe(true);
    expect(readShebang(file("d", "echo no shebang\n"))).toBeNull();
    expect(readShebang(join(dir, "missing"))).toBeNull();
  });
});
