/**
 * base/safe-glob.ts answers as picomatch does (same parser, same regex) but runs the regex with
 * base/linear-regex.ts, so a pattern from the model or a repository cannot pin the CPU.
 */
import picomatch from "picomatch";
import { describe, expect, it } from "vitest";
import { linearRegex, safeGlob } from "../../src/base/index.js";

const PATTERNS = [
  "**/*.ts",
  "*.ts",
  "src/{a,b}/*.md",
  "!(x)",
  "*.!(js)",
  "a/!(b)/c",
  "!x",
  "*",
  "**",
  "src/**",
  "a/**/b",
  "+(a|b).js",
  "*(a|b)c",
  "?(a)b",
  "@(a|b)",
  "[abc]?.js",
  "[!a]*",
  "[[:alpha:]]*",
  "file{1..3}.txt",
  "*.{js,jsx}",
  ".*",
  "**/.env",
  "**/node_modules/**",
  "/abs/**",
  "a\\*b",
  "foo/",
];
const PATHS = [
  "a.ts",
  "src/a.ts",
  "src/a/x.md",
  "src/c/x.md",
  "x",
  "x/y",
  "a/b",
  "a/x/y/b",
  "a/b/c",
  "a/c/c",
  "a.js",
  "ab.js",
  "aabc",
  "b",
  "ab",
  "Abc",
  "1bc",
  "file2.txt",
  "file4.txt",
  "a.jsx",
  ".env",
  "x/.env",
  ".git/config",
  "node_modules/p/x",
  "/abs/x",
  "a*b",
  "axb",
  "foo",
  "foo/",
  "../x/a.ts",
  "a/../b",
  "..",
  "",
];
const OPTIONS = [{ dot: true }, { dot: true, nocase: true }, { dot: true, basename: true }, {}];

describe("safeGlob", () => {
  it("answers as picomatch for ordinary patterns, paths and options", () => {
    const differ: string[] = [];
    for (const pattern of PATTERNS) {
      for (const options of OPTIONS) {
        const theirs = picomatch(pattern, options);
        const ours = safeGlob(pattern, options);
        for (const path of PATHS) {
          if (theirs(path) !== ours(path)) {
            differ.push(`${pattern} ${JSON.stringify(options)} ${JSON.stringify(path)}`);
          }
        }
      }
    }
    expect(differ).toEqual([]);
  });

  it("takes a list of patterns as picomatch does (any of them)", () => {
    const m = safeGlob(["**/*.test.ts", "test_*.py"], { dot: true });
    expect([m("a/b.test.ts"), m("test_x.py"), m("x/test_x.py"), m("a.ts")]).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it("matches `*a*a…*b` against a long name in linear time (V8's RegExp takes minutes)", () => {
    // Unfixed, this test never returns: the backtracking search blocks the worker.
    const m = safeGlob(`${"*a".repeat(14)}*b`, { dot: true });
    expect(m("a".repeat(60))).toBe(false);
    expect(m("a".repeat(4000))).toBe(false);
    expect(m(`${"a".repeat(4000)}b`)).toBe(true);
    // A negated extglob is a lookahead that reads to the end from every position.
    const negated = safeGlob(`!(${"*a".repeat(14)}*b)`, { dot: true });
    expect(negated("a".repeat(4000))).toBe(true);
    expect(negated(`${"a".repeat(4000)}b`)).toBe(false);
    const ext = safeGlob("+(a|aa)+(a|aa)c", { dot: true });
    expect(ext(`${"a".repeat(3000)}b`)).toBe(false);
  });

  it("refuses what picomatch refuses, naming the pattern", () => {
    expect(() => safeGlob("", {})).toThrow(/glob pattern "" cannot be used/);
  });
});

describe("linearRegex", () => {
  const cases: [string, string, string[]][] = [
    ["^(?:a|b)*c$", "", ["ababc", "abab", "c", ""]],
    ["(?=a)\\w+", "", ["ab", "ba", "-"]],
    ["^(?!ab)..$", "", ["ab", "ac", "a"]],
    ["(?<=x)y", "", ["xy", "zy", "y"]],
    ["(?<!x)y", "", ["xy", "zy", "y"]],
    ["\\bfoo\\b", "", ["a foo b", "afoob", "foo"]],
    ["\\Bfoo", "", ["afoo", "foo"]],
    ["^a{2,3}$", "", ["a", "aa", "aaa", "aaaa"]],
    ["^[^/]*?\\.TS$", "i", ["x.ts", "x.TS", "a/x.ts"]],
    ["^a.b$", "", ["a\nb", "axb"]],
    ["^a.b$", "s", ["a\nb", "axb"]],
    ["^[\\d\\s-]+$", "", ["1 2-3", "1a"]],
    ["^\\x41\\u0042$", "", ["AB", "ab"]],
    ["^[]a$", "", ["a"]],
  ];
  it("answers as RegExp.test", () => {
    for (const [source, flags, texts] of cases) {
      const ours = linearRegex(source, flags);
      const theirs = new RegExp(source, flags);
      for (const text of texts)
        expect([source, text, ours.test(text)]).toEqual([source, text, theirs.test(text)]);
    }
  });

  it("refuses backreferences and unknown flags with a clear error", () => {
    expect(() => linearRegex("(a)\\1")).toThrow(/backreferences are not supported/);
    expect(() => linearRegex("a", "u")).toThrow(/flag "u" is not supported/);
    expect(() => linearRegex("a{2000}")).toThrow(/counted repetition above 1000/);
  });

  it("runs the classic catastrophic regexes in linear time", () => {
    expect(linearRegex("^(a+)+$").test(`${"a".repeat(5000)}!`)).toBe(false);
    expect(linearRegex("^(?:(?!b).)*?(a|aa)*c$").test(`${"a".repeat(5000)}!`)).toBe(false);
  });
});
