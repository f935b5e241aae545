import { describe, expect, it } from "vitest";
import { stableStringify } from "../../src/llm/stable-json.js";

describe("stableStringify", () => {
  it("sorts keys at every depth and is independent of insertion order", () => {
    const a = {
      type: "function",
      function: {
        name: "shell",
        parameters: { type: "object", properties: { b: 1, a: [{ z: 1, y: 2 }] } },
      },
    };
    const b = {
      function: {
        parameters: { properties: { a: [{ y: 2, z: 1 }], b: 1 }, type: "object" },
        name: "shell",
      },
      type: "function",
    };
    expect(stableStringify(a)).toBe(stableStringify(b));
    expect(stableStringify(a)).toBe(
      '{"function":{"name":"shell","parameters":{"properties":{"a":[{"y":2,"z":1}],"b":1},"type":"object"}},"type":"function"}',
    );
  });

  it("matches JSON.stringify for what it cannot represent", () => {
    const value = {
      u: undefined,
      f: () => 1,
      n: Number.NaN,
      s: 'é\n"',
      arr: [undefined, 1],
      d: new Date(0),
    };
    expect(JSON.parse(stableStringify(value))).toEqual(JSON.parse(JSON.stringify(value)));
    expect(stableStringify(undefined)).toBe("null");
  });
});
