import { describe, expect, it } from "vitest";
import {
  createStormBreaker,
  type StormVerdict,
  stormAbortMessage,
  stormStubResult,
} from "../../../src/agent/repair/storm.js";

type Step = [
  name: string,
  args: Record<string, unknown>,
  mutating: boolean,
  expected: StormVerdict,
];

const read = (path: string, expected: StormVerdict): Step => [
  "read_file",
  { path },
  false,
  expected,
];
const write = (path: string, expected: StormVerdict): Step => [
  "write_file",
  { path, content: "x" },
  true,
  expected,
];

describe("storm breaker", () => {
  const cases: Array<{ name: string; steps: Step[] }> = [
    {
      name: "two identical calls are fine",
      steps: [read("a", "ok"), read("a", "ok")],
    },
    {
      name: "the third identical call is stubbed, a fourth aborts",
      steps: [read("a", "ok"), read("a", "ok"), read("a", "stub"), read("a", "abort")],
    },
    {
      name: "different arguments are different calls",
      steps: [read("a", "ok"), read("b", "ok"), read("a", "ok"), read("b", "ok"), read("c", "ok")],
    },
    {
      name: "repeats spread wider than the window of 6 do not storm",
      steps: [
        read("a", "ok"),
        read("b", "ok"),
        read("c", "ok"),
        read("d", "ok"),
        read("a", "ok"),
        read("e", "ok"),
        read("f", "ok"),
        read("a", "ok"),
      ],
    },
    {
      name: "repeats inside the window storm even when interleaved",
      steps: [
        read("a", "ok"),
        read("b", "ok"),
        read("a", "ok"),
        read("c", "ok"),
        read("a", "stub"),
      ],
    },
    {
      name: "a mutating call clears earlier reads (re-reading after a write is legitimate)",
      steps: [read("a", "ok"), read("a", "ok"), write("a", "ok"), read("a", "ok"), read("a", "ok")],
    },
    {
      name: "identical mutating calls still storm",
      steps: [write("a", "ok"), read("x", "ok"), write("a", "ok"), write("a", "stub")],
    },
    {
      name: "after a stub, a storm on a different call is stubbed first too",
      steps: [
        read("a", "ok"),
        read("a", "ok"),
        read("a", "stub"),
        read("b", "ok"),
        read("b", "ok"),
        read("b", "stub"),
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const breaker = createStormBreaker();
      const got = c.steps.map(([name, args, mutating]) =>
        breaker.check({ name, arguments: args }, { mutating }),
      );
      expect(got).toEqual(c.steps.map((s) => s[3]));
    });
  }

  it("compares arguments canonically (key order, string or object form)", () => {
    const breaker = createStormBreaker();
    expect(breaker.check({ name: "grep", arguments: { a: 1, b: 2 } }, { mutating: false })).toBe(
      "ok",
    );
    expect(breaker.check({ name: "grep", arguments: '{"b":2,"a":1}' }, { mutating: false })).toBe(
      "ok",
    );
    expect(breaker.check({ name: "grep", arguments: { b: 2, a: 1 } }, { mutating: false })).toBe(
      "stub",
    );
  });

  it("reset() starts a new user turn: window and stubs forgotten", () => {
    const breaker = createStormBreaker();
    const call = { name: "read_file", arguments: { path: "a" } };
    for (const v of ["ok", "ok", "stub"]) expect(breaker.check(call, { mutating: false })).toBe(v);
    breaker.reset();
    for (const v of ["ok", "ok", "stub", "abort"])
      expect(breaker.check(call, { mutating: false })).toBe(v);
  });

  it("honours a custom window and threshold", () => {
    const breaker = createStormBreaker({ window: 2, threshold: 2 });
    const a = { name: "x", arguments: {} };
    const b = { name: "y", arguments: {} };
    expect(breaker.check(a, { mutating: false })).toBe("ok");
    expect(breaker.check(b, { mutating: false })).toBe("ok");
    expect(breaker.check(a, { mutating: false })).toBe("ok");
    expect(breaker.check(a, { mutating: false })).toBe("stub");
  });

  it("words the stub for the model and the abort for the user", () => {
    expect(stormStubResult("read_file")).toMatch(
      /read_file.*same arguments|read_file.*exact arguments/,
    );
    expect(stormStubResult("read_file")).toMatch(/end the turn/);
    expect(stormAbortMessage("shell")).toMatch(/shell/);
  });
});
