import { describe, expect, it } from "vitest";
import { checkValue, parseForm, parseTyped, showValue } from "../../../src/cli/tui/elicit-form.js";

/** The form server-everything's trigger-elicitation-request tool sends (every field kind). */
const EVERYTHING_FORM = {
  type: "object",
  properties: {
    name: { title: "String", type: "string", description: "Your full, legal name" },
    check: { title: "Boolean", type: "boolean" },
    email: { title: "Email", type: "string", format: "email" },
    birthdate: { type: "string", format: "date" },
    integer: { type: "integer", minimum: 1, maximum: 100, default: 42 },
    number: { type: "number", minimum: 0, maximum: 1000, default: 3.14 },
    friend: { type: "string", enum: ["Monica", "Rachel"], default: "Monica" },
    instruments: {
      type: "array",
      minItems: 1,
      maxItems: 2,
      items: { type: "string", enum: ["Guitar", "Piano", "Drums"] },
      default: ["Guitar"],
    },
    hero: {
      type: "string",
      oneOf: [
        { const: "hero-1", title: "Superman" },
        { const: "hero-2", title: "Wonder Woman" },
      ],
      default: "hero-1",
    },
    fish: {
      type: "array",
      items: {
        anyOf: [
          { const: "fish-1", title: "Tuna" },
          { const: "fish-2", title: "Trout" },
        ],
      },
    },
    pet: {
      type: "string",
      enum: ["pet-1", "pet-2"],
      enumNames: ["Cats", "Dogs"],
      default: "pet-9",
    },
  },
  required: ["name"],
};

describe("parseForm", () => {
  it("reads every field kind of MCP's form schema, in order, with valid defaults", () => {
    const form = parseForm(EVERYTHING_FORM);
    expect(form.ok).toBe(true);
    const by = Object.fromEntries(form.fields.map((f) => [f.key, f]));
    expect(form.fields.map((f) => f.key)).toEqual(Object.keys(EVERYTHING_FORM.properties));
    expect(by.name).toMatchObject({ kind: "text", title: "String", required: true });
    expect(by.birthdate).toMatchObject({ kind: "text", title: "birthdate", format: "date" });
    expect(by.integer).toMatchObject({ kind: "integer", minimum: 1, maximum: 100, default: 42 });
    expect(by.instruments).toMatchObject({
      kind: "multi",
      minItems: 1,
      maxItems: 2,
      default: ["Guitar"],
    });
    expect(by.hero?.options).toEqual([
      { value: "hero-1", label: "Superman" },
      { value: "hero-2", label: "Wonder Woman" },
    ]);
    expect(by.fish).toMatchObject({
      kind: "multi",
      options: [
        { value: "fish-1", label: "Tuna" },
        { value: "fish-2", label: "Trout" },
      ],
    });
    expect(by.pet?.options?.[1]).toEqual({ value: "pet-2", label: "Dogs" });
    // "pet-9" is not one of its choices: not offered as the default.
    expect(by.pet?.default).toBeUndefined();
  });

  it("an optional field of another shape is left out; a required one makes the form unusable", () => {
    const nested = { type: "object", properties: { a: { type: "object" }, b: { type: "string" } } };
    expect(parseForm(nested)).toMatchObject({ ok: true, fields: [{ key: "b" }] });
    expect(parseForm({ ...nested, required: ["a"] })).toMatchObject({
      ok: false,
      reason: expect.stringContaining("a"),
    });
    expect(parseForm(undefined)).toEqual({ ok: true, fields: [] });
  });
});

describe("checking answers", () => {
  const fields = Object.fromEntries(parseForm(EVERYTHING_FORM).fields.map((f) => [f.key, f]));
  const f = (k: string) => {
    const field = fields[k];
    if (!field) throw new Error(k);
    return field;
  };

  it("empty input: the default, nothing for an optional field, an error for a required one", () => {
    expect(parseTyped(f("integer"), "")).toEqual({ value: 42 });
    expect(parseTyped(f("email"), "  ")).toEqual({ skip: true });
    expect(parseTyped(f("name"), "")).toEqual({ error: "required" });
  });

  it("numbers, ranges and whole numbers", () => {
    expect(parseTyped(f("integer"), "7")).toEqual({ value: 7 });
    expect(parseTyped(f("integer"), "7.5")).toEqual({ error: "expected a whole number" });
    expect(parseTyped(f("integer"), "101")).toEqual({ error: "at most 100" });
    expect(parseTyped(f("number"), "abc")).toEqual({ error: "expected a number" });
    expect(parseTyped(f("number"), "2.5")).toEqual({ value: 2.5 });
  });

  it("formats and yes/no", () => {
    expect(parseTyped(f("email"), "ada@example")).toEqual({ error: "not an email address" });
    expect(parseTyped(f("email"), "ada@example.com")).toEqual({ value: "ada@example.com" });
    expect(parseTyped(f("birthdate"), "1815-12-10")).toEqual({ value: "1815-12-10" });
    expect(parseTyped(f("birthdate"), "10/12/1815")).toEqual({ error: "not a date (YYYY-MM-DD)" });
    expect(parseTyped(f("check"), "yes")).toEqual({ value: true });
    expect(parseTyped(f("check"), "maybe")).toEqual({ error: "answer y or n" });
  });

  it("choices and multiple choices", () => {
    expect(checkValue(f("friend"), "Rachel")).toBeNull();
    expect(checkValue(f("friend"), "Ross")).toBe("not one of the choices");
    expect(checkValue(f("instruments"), [])).toBe("choose at least 1");
    expect(checkValue(f("instruments"), ["Guitar", "Piano", "Drums"])).toBe("choose at most 2");
    expect(showValue(f("hero"), "hero-2")).toBe("Wonder Woman");
    expect(showValue(f("fish"), ["fish-1", "fish-2"])).toBe("Tuna, Trout");
  });
});
