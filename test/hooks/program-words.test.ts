/** The words that run in a hook's command line, from the parser (src/hooks/program-words.ts). */
import { describe, expect, it } from "vitest";
import { programWords, tokenizerReadsIt } from "../../src/hooks/program-words.js";

const run = (line: string) =>
  programWords(line).map((p) => `${p.script ? "script " : ""}${p.word}`);

describe("programWords", () => {
  it("leaves a plain simple command to the tokenizer (no parser load)", () => {
    expect(tokenizerReadsIt("sh tools/x.sh --fast")).toBe(true);
    expect(programWords("sh tools/x.sh")).toEqual([]);
  });

  it("leaves output redirections after the program to the tokenizer, and nothing else", () => {
    // The bench's hooks (`echo k >> counter`) and every hook that logs.
    expect(tokenizerReadsIt("echo 0 >> '/tmp/hook-count'")).toBe(true);
    expect(tokenizerReadsIt("sh tools/x.sh 2>/dev/null >log")).toBe(true);
    // Ahead of the program, the first word is not what runs: the parser reads it.
    expect(tokenizerReadsIt("> log sh tools/x.sh")).toBe(false);
    expect(run("> log sh tools/x.sh")).toEqual(["sh", "script tools/x.sh"]);
    expect(tokenizerReadsIt("2>/dev/null sh tools/x.sh")).toBe(false);
    expect(run("2>/dev/null sh tools/x.sh")).toEqual(["sh", "script tools/x.sh"]);
    // A process substitution, an input redirection, a descriptor copy: still the parser.
    expect(tokenizerReadsIt("echo x >(sh tools/y.sh)")).toBe(false);
    expect(tokenizerReadsIt("sh < tools/x.sh")).toBe(false);
    expect(tokenizerReadsIt("echo x >&2")).toBe(false);
    expect(tokenizerReadsIt("echo x >log; sh tools/x.sh")).toBe(false);
  });

  it.each([
    ["FOO=1 sh x.sh", ["sh", "script x.sh"]],
    ["env -i -u HOME FOO=1 node x.js", ["node", "script x.js"]],
    ["nice -n 5 timeout -s KILL 10 python3 -u t.py", ["python3", "script t.py"]],
    ["sudo -u bob bash run", ["bash", "script run"]],
    ["xargs -I {} sh -c 'echo {}'", ["sh"]],
    ["FOO=1 python3 -m pytest", ["python3"]],
    ["flock /tmp/l ./tools/go", ["./tools/go"]],
    ["if [ -f a ]; then . ./lib.sh; fi", ["[", ".", "script ./lib.sh"]],
    ["(cd tools && ./run) || { exec ./b; }", ["cd", "./run", "./b"]],
  ])("%s", (line, want) => {
    expect(run(line)).toEqual(want);
  });

  it("keeps an expansion's source text and marks it not literal", () => {
    const [p] = programWords('true && "tools/$f"').slice(1);
    expect(p).toEqual({ word: "tools/$f", literal: false, script: false });
  });
});
