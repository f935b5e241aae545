import { describe, expect, it } from "vitest";
import { wildcardMatch, wildcardMatcher } from "../../src/base/index.js";

/** The RegExp the rule matchers used before (rules.ts commandMatcher, hooks/match.ts). */
function oldRegExp(pattern: string): RegExp {
  const body = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}$`, "s");
}

describe("wildcardMatch", () => {
  it("answers as the old RegExp on ordinary patterns", () => {
    const patterns = [
      "git push*",
      "git * push * --force*",
      "npm run *",
      "*",
      "**",
      "rm -rf *",
      "*.sh",
      "a*b*c",
      "exact words",
      "git push origin *:*",
      "x?y.(z)*[w]",
    ];
    const texts = [
      "git push",
      "git push origin main --force",
      "git -C x push y --force-with-lease",
      "npm run test",
      "npm run",
      "rm -rf /",
      "run.sh",
      "abc",
      "aXbYc",
      "acb",
      "",
      "exact words",
      "git push origin a:b",
      "x?y.(z)[w]",
      "xzy.(z)[w]",
      "multi\nline * text",
    ];
    for (const p of patterns) {
      const re = oldRegExp(p);
      for (const t of texts) expect(wildcardMatch(p, t), `${p} / ${t}`).toBe(re.test(t));
    }
  });

  it("answers as the old RegExp on random patterns and texts over a small alphabet", () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    const pick = (alphabet: string, n: number) =>
      Array.from({ length: n }, () => alphabet[next() % alphabet.length]).join("");
    for (let i = 0; i < 4000; i++) {
      const p = pick("ab*", next() % 7);
      const t = pick("ab", next() % 9);
      expect(wildcardMatch(p, t), `${p} / ${t}`).toBe(oldRegExp(p).test(t));
    }
  });

  it("answers promptly where the RegExp backtracks (a 300 KB `git push push …`)", () => {
    const matches = wildcardMatcher("git * push * --force*");
    const long = `git${" push".repeat(60_000)}`;
    expect(matches(long)).toBe(false);
    expect(matches(`${long} --force`)).toBe(true);
    const many = wildcardMatcher(`${"*a".repeat(30)}*b`);
    expect(many("a".repeat(100_000))).toBe(false);
  });
});
