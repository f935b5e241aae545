import { describe, expect, it } from "vitest";
import { repairJsonArguments } from "../../../src/agent/repair/truncation.js";

describe("repairJsonArguments", () => {
  const cases: Array<{
    name: string;
    raw: string;
    value: Record<string, unknown>;
    repaired: boolean;
    failed?: boolean;
    cutString?: boolean;
    note?: RegExp;
  }> = [
    {
      name: "valid JSON untouched",
      raw: '{"path":"a.ts"}',
      value: { path: "a.ts" },
      repaired: false,
    },
    { name: "empty string is no arguments", raw: "", value: {}, repaired: false },
    { name: "whitespace only", raw: "  \n", value: {}, repaired: false },
    {
      name: "```json fence",
      raw: '```json\n{"path": "a.ts"}\n```',
      value: { path: "a.ts" },
      repaired: true,
      note: /fence/,
    },
    {
      name: "unclosed ```json fence",
      raw: '```json\n{"path": "a.ts"}',
      value: { path: "a.ts" },
      repaired: true,
    },
    {
      name: "leading json\\n",
      raw: 'json\n{"path": "a.ts"}',
      value: { path: "a.ts" },
      repaired: true,
      note: /leading "json"/,
    },
    {
      name: "trailing garbage",
      raw: '{"path": "a.ts"}}</invoke>',
      value: { path: "a.ts" },
      repaired: true,
      note: /trailing text/,
    },
    {
      name: "two objects: the first wins",
      raw: '{"a": 1}{"b": 2}',
      value: { a: 1 },
      repaired: true,
    },
    {
      name: "truncated inside a string",
      raw: '{"path": "a.ts", "content": "line one\\nline tw',
      value: { path: "a.ts", content: "line one\nline tw" },
      repaired: true,
      cutString: true,
      note: /unterminated string/,
    },
    {
      name: "truncated after a value: brackets closed",
      raw: '{"path": "a.ts", "opts": {"limit": [1, 2',
      value: { path: "a.ts", opts: { limit: [1, 2] } },
      repaired: true,
      cutString: false,
      note: /unterminated/,
    },
    {
      name: "trailing comma",
      raw: '{"a": 1, "b": [1, 2,],}',
      value: { a: 1, b: [1, 2] },
      repaired: true,
      note: /trailing comma/,
    },
    {
      name: "dangling key with colon → null",
      raw: '{"path": "a.ts", "content":',
      value: { path: "a.ts", content: null },
      repaired: true,
      note: /dangling key/,
    },
    {
      name: "dangling key without colon → null",
      raw: '{"path": "a.ts", "content"',
      value: { path: "a.ts", content: null },
      repaired: true,
    },
    {
      name: "key cut mid-name is dropped",
      raw: '{"path": "a.ts", "cont',
      value: { path: "a.ts" },
      repaired: true,
      cutString: false,
      note: /mid-name/,
    },
    { name: "cut literal completed", raw: '{"all": tr', value: { all: true }, repaired: true },
    { name: "cut number kept", raw: '{"n": 12', value: { n: 12 }, repaired: true },
    { name: "cut number with dot", raw: '{"n": 1.', value: { n: 1 }, repaired: true },
    { name: "lone minus → null", raw: '{"n": -', value: { n: null }, repaired: true },
    {
      name: "escape cut at the end",
      raw: '{"s": "ab\\',
      value: { s: "ab" },
      repaired: true,
      cutString: true,
    },
    {
      name: "raw newline inside a string",
      raw: '{"content": "a\nb"}',
      value: { content: "a\nb" },
      repaired: true,
      note: /control characters/,
    },
    {
      name: "double-encoded arguments",
      raw: JSON.stringify(JSON.stringify({ path: "a.ts" })),
      value: { path: "a.ts" },
      repaired: true,
      note: /double-encoded/,
    },
    {
      name: "leading prose",
      raw: 'Arguments: {"path": "a.ts"}',
      value: { path: "a.ts" },
      repaired: true,
      note: /before/,
    },
    {
      name: "not JSON at all → {} fallback",
      raw: "read the file please",
      value: {},
      repaired: true,
      failed: true,
      note: /could not repair/,
    },
    {
      name: "unquoted keys → {} fallback",
      raw: "{path: 'a.ts'}",
      value: {},
      repaired: true,
      failed: true,
    },
    { name: "an array → fallback", raw: "[1,2]", value: {}, repaired: true, failed: true },
    { name: "a number → fallback", raw: "42", value: {}, repaired: true, failed: true },
  ];

  for (const c of cases) {
    it(c.name, () => {
      const r = repairJsonArguments(c.raw);
      expect(r.value).toEqual(c.value);
      expect(r.repaired).toBe(c.repaired);
      expect(r.failed).toBe(c.failed ?? false);
      if (c.cutString !== undefined) expect(r.cutString).toBe(c.cutString);
      if (c.note) expect(r.note).toMatch(c.note);
      if (!c.repaired) expect(r.note).toBe("");
    });
  }

  it("keeps __proto__ as a plain key instead of touching the prototype", () => {
    const r = repairJsonArguments('{"__proto__": {"polluted": true}, "a": 1');
    expect(Object.getPrototypeOf(r.value)).toBe(Object.prototype);
    expect(Object.hasOwn(r.value, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("never throws on arbitrary prefixes of a valid document", () => {
    const doc = JSON.stringify({
      path: "src/a.ts",
      content: 'x = "1";\n\ty = [1, {"z": null}]\\',
      n: -1.5e3,
      flags: [true, false, null],
      nested: { deep: { list: [] } },
    });
    for (let i = 0; i <= doc.length; i++) {
      const r = repairJsonArguments(doc.slice(0, i));
      expect(typeof r.value).toBe("object");
      if (i > 0) expect(r.failed).toBe(false);
    }
  });
});
