import { describe, expect, it } from "vitest";
import { analyzeShell, analyzeShellWithParser } from "../../../src/hooks/shell/parse.js";
import { readSimpleLine } from "../../../src/hooks/shell/simple-line.js";

/** simple-line.ts reads a line without mvdan-sh only when its reading is the parser's. */
function expectParserReading(line: string): void {
  expect(analyzeShell(line), JSON.stringify(line)).toEqual(analyzeShellWithParser(line));
}

/** A seeded generator (mulberry32): the same lines on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Pieces of lines: mostly the subset's, and every character and word that leaves it. */
const PIECES = [
  ..."abcxyz019_./,:@%+-".split(""),
  ..." \t".split(""),
  " ",
  " ",
  "'",
  "'a b'",
  "' > $x ; \" '",
  ">",
  ">>",
  "<",
  " > ",
  " >> ",
  " < ",
  "/dev/null",
  "2",
  ...'=$`"\\*?[]~#{}();|&!\n\r\0'.split(""),
  "echo",
  "if",
  "time",
  "export",
  "let",
  "in",
  "é",
  "😀",
  "\ud800",
  ">&",
  ">|",
  "<<",
  "<<<",
  "&>",
  "<>",
];

describe("command lines read without the parser (simple-line.ts)", () => {
  it("reads the benchmark's and common hooks' lines as mvdan-sh does", () => {
    const lines = [
      "echo 7 >> '/tmp/keel-bench-peers-x/keel-20-32-reasonix-0/hook-count'",
      "./scripts/check.sh --fast",
      "python3 hooks/check.py",
      "echo 1 >> '/tmp/a b/log'",
      "echo x > /dev/null",
      "echo x >> /dev/null > log",
      "cat < in.txt",
      "  echo\ta  >  'x'  > 'x' ",
      "echo 'it''s' ''",
      "echo 'a\nb' 'tab\there' '$HOME' '*' '~' 'é'",
      "node_modules/.bin/biome check src:1 a,b @x %y +z",
    ];
    for (const line of lines) {
      expect(readSimpleLine(line), line).toBeDefined();
      expectParserReading(line);
    }
  });

  it("leaves to the parser what the shell reads otherwise", () => {
    const lines = [
      "echo 2>x",
      "echo hi>x",
      "a=b cmd",
      "echo a=b",
      "export X",
      "declare -x A",
      "let x",
      "time ls",
      "if",
      "for",
      "echo $HOME",
      'echo "x"',
      "echo \\x",
      "echo ~/x",
      "ls *.ts",
      "echo a{b,c}",
      "a; b",
      "a | b",
      "a &",
      "a && b",
      "echo # c",
      "cat <<< x",
      "echo >&2",
      "echo >| x",
      "echo <> x",
      "echo > 'x",
      ">x",
      "",
      "   ",
      "echo 'a\0b'",
      "echo '\ud800'",
      "echo '😀'",
      "echo !x",
    ];
    for (const line of lines) {
      expect(readSimpleLine(line), JSON.stringify(line)).toBeUndefined();
      expectParserReading(line);
    }
  });

  it("agrees with mvdan-sh on generated lines", () => {
    const next = random(29);
    let read = 0;
    for (let n = 0; n < 4000; n++) {
      let line = "";
      const length = 1 + Math.floor(next() * 12);
      for (let k = 0; k < length; k++) line += PIECES[Math.floor(next() * PIECES.length)];
      if (readSimpleLine(line) === undefined) continue;
      read++;
      expectParserReading(line);
    }
    // Enough generated lines fall in the subset for the comparison to mean something.
    expect(read).toBeGreaterThan(150);
  });
});
