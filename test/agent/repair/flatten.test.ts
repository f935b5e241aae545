import { describe, expect, it } from "vitest";
import { flattenToolSchema, renestArgs } from "../../../src/agent/repair/flatten.js";

const str = { type: "string" };

const deep = {
  type: "object",
  description: "Update a profile",
  properties: {
    user: {
      type: "object",
      properties: {
        profile: {
          type: "object",
          properties: {
            name: { type: "string", description: "Full name" },
            age: { type: "integer" },
          },
          required: ["name"],
        },
      },
      required: ["profile"],
    },
    dryRun: { type: "boolean" },
  },
  required: ["user"],
  additionalProperties: false,
};

function wide(n: number) {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) properties[`p${i}`] = str;
  return { type: "object", properties };
}

describe("flattenToolSchema", () => {
  const cases: Array<{ name: string; schema: Record<string, unknown>; flattened: boolean }> = [
    { name: "small flat schema", schema: wide(3), flattened: false },
    { name: "exactly 10 leaves", schema: wide(10), flattened: false },
    { name: "11 leaves", schema: wide(11), flattened: true },
    {
      name: "depth 2",
      schema: { type: "object", properties: { a: { type: "object", properties: { b: str } } } },
      flattened: false,
    },
    { name: "depth 3", schema: deep, flattened: true },
    {
      name: "arrays of objects are leaves",
      schema: {
        type: "object",
        properties: {
          edits: {
            type: "array",
            items: {
              type: "object",
              properties: { a: { type: "object", properties: { b: str } } },
            },
          },
        },
      },
      flattened: false,
    },
    {
      name: "a dotted property name blocks flattening",
      schema: { ...wide(11), properties: { ...wide(11).properties, "a.b": str } },
      flattened: false,
    },
    { name: "no properties", schema: { type: "object" }, flattened: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = flattenToolSchema(c.schema);
      expect(r.flattened).toBe(c.flattened);
      if (!c.flattened) expect(r.parameters).toBe(c.schema);
    });
  }

  it("shows dot-path leaves with their schemas and the required chain", () => {
    const r = flattenToolSchema(deep);
    expect(r.parameters).toEqual({
      type: "object",
      description: "Update a profile",
      additionalProperties: false,
      properties: {
        "user.profile.name": { type: "string", description: "Full name" },
        "user.profile.age": { type: "integer" },
        dryRun: { type: "boolean" },
      },
      required: ["user.profile.name"],
    });
  });

  it("a leaf under an optional object is not required", () => {
    const schema = structuredClone(deep);
    schema.properties.user.required = [];
    const r = flattenToolSchema(schema);
    expect(r.parameters.required).toBeUndefined();
  });
});

describe("renestArgs", () => {
  it("rebuilds nested objects from dot paths", () => {
    expect(
      renestArgs({ "user.profile.name": "Ada", "user.profile.age": 36, dryRun: true }, true),
    ).toEqual({ user: { profile: { name: "Ada", age: 36 } }, dryRun: true });
  });

  it("merges dotted keys with a nested object the model sent anyway", () => {
    expect(renestArgs({ user: { profile: { age: 1 } }, "user.profile.name": "Ada" }, true)).toEqual(
      {
        user: { profile: { age: 1, name: "Ada" } },
      },
    );
    expect(renestArgs({ "user.profile.name": "Ada", user: { profile: { age: 1 } } }, true)).toEqual(
      {
        user: { profile: { age: 1, name: "Ada" } },
      },
    );
  });

  it("is the identity when the schema was not flattened", () => {
    const args = { "a.b": 1 };
    expect(renestArgs(args, false)).toBe(args);
  });

  it("keeps keys with empty segments literally", () => {
    expect(renestArgs({ "a..b": 1, ".x": 2 }, true)).toEqual({ "a..b": 1, ".x": 2 });
  });

  it("round-trips: flatten, fill every leaf, renest gives the nested shape", () => {
    const { parameters } = flattenToolSchema(wide(12));
    const props = Object.keys(parameters.properties as object);
    const args = Object.fromEntries(props.map((p) => [p, p.toUpperCase()]));
    expect(renestArgs(args, true)).toEqual(args);
  });

  it("cannot be made to write to Object.prototype", () => {
    const out = renestArgs({ "__proto__.polluted": true, "constructor.prototype.x": 1 }, true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });
});
