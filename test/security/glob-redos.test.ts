/**
 * Every place a glob or `*` wildcard from the model or a repository is matched, fed the pattern
 * that makes V8's backtracking RegExp run for minutes (attacks6/17, 18): `*a*a…*a*b` against 60
 * or more `a`s. Each answers (false, then true once a `b` ends the text) through its public
 * function. Unfixed, the first of these never returns: the search blocks the worker.
 */
import { describe, expect, it } from "vitest";
import { commandMatcher, decideByRules, parseRule } from "../../src/agent/permissions/rules.js";
import { discoveryMatcher, parseCondition } from "../../src/hooks/index.js";

const STARS = `${"*a".repeat(14)}*b`;
const LONG = "a".repeat(4000);

describe("patterns that make a backtracking RegExp explode", () => {
  it("a hook's if: condition on a path and on a command", () => {
    const path = parseCondition(`Write(${STARS})`);
    const command = parseCondition(`Bash(${STARS})`);
    if (!path.ok || !command.ok) throw new Error("conditions refused");
    expect(path.condition.test({ path: LONG }, "/proj")).toBe(false);
    expect(path.condition.test({ path: `${LONG}b` }, "/proj")).toBe(true);
    expect(command.condition.test({ command: LONG }, "/proj")).toBe(false);
    expect(command.condition.test({ command: `${LONG}b` }, "/proj")).toBe(true);
  });

  it("a permission rule's path pattern and command wildcard", () => {
    const file = { path: "/x/.keel/settings.json", scope: "project" as const };
    const read = parseRule(`Read(${STARS})`, "deny", file);
    if (!read.ok) throw new Error(read.why);
    const decide = (path: string) =>
      decideByRules(
        { rules: [read.rule] },
        { toolName: "read_file", input: { path }, projectDir: "/p", homeDir: "/h" },
      )?.kind ?? null;
    expect(decide(LONG)).toBe(null);
    expect(decide(`${LONG}b`)).toBe("deny");
    const bash = commandMatcher(STARS.replaceAll("*", " * ").trim());
    expect(bash(LONG.split("").join(" "))).toBe(false);
    expect(commandMatcher(STARS)(`${LONG}b`)).toBe(true);
  });

  it("a test runner's discovery glob and jest testRegex", () => {
    const matches = discoveryMatcher([STARS, "re:^(a+)+$"]);
    expect(matches(`${LONG}!`)).toBe(false);
    expect(matches(`${LONG}b`)).toBe(true);
    expect(matches(LONG)).toBe(true);
  });
});
