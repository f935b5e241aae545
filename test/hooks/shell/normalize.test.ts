import { describe, expect, it } from "vitest";
import { parseCondition, splitShellCommand } from "../../../src/hooks/match.js";
import {
  commandsForConditions,
  effectiveArgv,
  effectiveWords,
} from "../../../src/hooks/shell/normalize.js";

function condition(text: string) {
  const parsed = parseCondition(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.condition;
}

describe("if: shell(git push*) sees through the ways to spell git push", () => {
  const guard = condition("Bash(git push*)");
  it.each([
    "git push",
    "git  push",
    "git\tpush origin",
    "env git push",
    "env -i FOO=1 git push",
    "command git push",
    "builtin git push",
    "exec git push",
    "nohup git push",
    "\\git push",
    "g\\it pu\\sh",
    "'git' \"push\"",
    "{ git push; }",
    "( git push )",
    "echo $(git push)",
    "echo `git push`",
    "cat <(git push)",
    "FOO=1 git push",
    "true && git push",
    "false || git push",
    "ls | git push",
    "if true; then git push; fi",
    "for x in 1; do git push; done",
    "sh -c 'git push'",
    'bash -c "cd x && git push"',
    "eval 'git push --force'",
    "time git push",
    "! git push",
    "x() { git push; }; x",
    "git push &",
    "env -S 'git push'",
    "env --split-string='git push'",
    "nice -n 5 git push",
    "timeout 10 git push",
    "timeout -s KILL 10 git push",
    "echo x | xargs -n 1 git push",
    "sudo -u me git push",
    "stdbuf -o0 git push",
    "bash -lc 'git push'",
    "/bin/sh -ec 'git push'",
    "sh -c -- 'git push' name",
    "bash --norc -o pipefail -c 'git push'",
    "/usr/bin/env bash -c 'git push'",
    "bash <<< 'git push'",
    "echo 'git push' | sh",
    "((git push))",
    "echo $'x\\' ; git push ; # '",
    "bash -c '{git,push}'",
    // git's global options come before the subcommand (docs/hooks.md says so).
    "git -C dir push",
    "git -C dir -c a=b --no-pager push origin",
    "git --git-dir=.git push",
  ])("%s", (command) => {
    expect(guard.test({ command }, "/p")).toBe(true);
  });

  it.each([
    "echo git push",
    "git pull",
    "gitpush",
    "echo 'git push'",
    "git log # git push",
    "bash -c 'echo x' 'git push'",
  ])("not %s", (command) => {
    expect(guard.test({ command }, "/p")).toBe(false);
  });

  it("a line the parser rejects falls back to splitting, so a guard still sees it", () => {
    expect(guard.test({ command: "git push; echo 'unterminated" }, "/p")).toBe(true);
  });
});

describe("effectiveArgv", () => {
  it.each([
    [
      ["env", "-u", "X", "A=1", "--", "ls", "-l"],
      ["ls", "-l"],
    ],
    [["command", "-p", "exec", "-a", "n", "ls"], ["ls"]],
    [["env"], []],
  ])("%j", (argv, want) => {
    expect(effectiveArgv(argv)).toEqual(want);
  });

  it("commandsForConditions joins words with one space", () => {
    expect(commandsForConditions("a  'b  c'   d && e", splitShellCommand)).toEqual([
      "a b  c d",
      "e",
    ]);
  });
});

describe("effectiveWords: where each kept word came from", () => {
  it.each([
    [
      ["git", "push"],
      ["git", "push"],
      [0, 1],
    ],
    [
      ["nice", "git", "-C", "d", "-c", "x=y", "push"],
      ["git", "push"],
      [1, 6],
    ],
    [
      ["env", "-S", "git -c a=b", "z", "-f"],
      ["git", "z", "-f"],
      [2, 3, 4],
    ],
    [
      ["env", "--split-string=rm -f", "v"],
      ["rm", "-f", "v"],
      [1, 1, 2],
    ],
    [
      ["env", "-Srm -f", "v"],
      ["rm", "-f", "v"],
      [1, 1, 2],
    ],
    [
      ["timeout", "5", "env", "-S", "a b", "c"],
      ["a", "b", "c"],
      [4, 4, 5],
    ],
  ])("%j", (raw, argv, from) => {
    const got = effectiveWords(raw);
    expect(got.argv).toEqual(argv);
    expect(got.from).toEqual(from);
    expect(effectiveArgv(raw)).toEqual(argv);
  });

  it("keeps git's global options for the code-runner check", () => {
    expect(effectiveWords(["env", "git", "-c", "alias.z=!rm", "z"]).withOptions).toEqual([
      "git",
      "-c",
      "alias.z=!rm",
      "z",
    ]);
  });
});
