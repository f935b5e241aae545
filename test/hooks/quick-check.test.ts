/**
 * The quick checks in front of the hook-file schemas (config/quick-check.ts) agree with zod:
 * whenever a quick check is sure, zod accepts the value and returns the same data (same keys
 * in the same order); whenever zod accepts a JSON value, the quick check is sure too. Every
 * field of every schema is probed with valid and invalid values, then random mixes.
 */
import { describe, expect, it } from "vitest";
import { isSure, type QuickChecker } from "../../src/hooks/config/quick-check.js";
import {
  flatEntrySchema,
  groupSchema,
  handlerInputSchema,
  hooksFileSchema,
  keelSettingsSchema,
  reasonixEntrySchema,
} from "../../src/hooks/config/schema.js";

const checkers: Record<string, () => QuickChecker<unknown>> = {
  handlerInput: handlerInputSchema,
  group: groupSchema,
  flatEntry: flatEntrySchema,
  reasonixEntry: reasonixEntrySchema,
  keelSettings: keelSettingsSchema,
  hooksFile: hooksFileSchema,
};

/** Values a JSON or YAML hook file can hold, valid for some fields and not others. */
const probes: unknown[] = [
  "",
  "x",
  "block",
  "allow",
  "read_file|Bash",
  0,
  1,
  2,
  -1,
  1.5,
  5,
  5000,
  2 ** 60,
  true,
  false,
  null,
  [],
  ["a"],
  ["a", "b"],
  [1],
  ["a", 2],
  [[]],
  {},
  { a: "b" },
  { a: 1 },
  { a: "b", c: "d" },
  { cagent: true },
  { cagent: "agents/*.yaml" },
  { cagent: ["a.yaml"] },
  { cagent: 1 },
  { cagent: "x", claude: false },
];

/** Where the quick check may step aside although zod accepts (it leaves these to zod). */
const protoKey = JSON.parse('{"__proto__": "x", "a": "b"}');

/** Both answers for one value; fails the test when they disagree. */
function agree(checker: QuickChecker<unknown>, value: unknown, mayStepAside = false): boolean {
  const quick = checker.quick(value);
  const zod = checker.schema().safeParse(value);
  const label = JSON.stringify(value);
  if (isSure(quick)) {
    expect(zod.success, `zod rejects what the quick check accepted: ${label}`).toBe(true);
    expect(JSON.stringify(quick), label).toBe(JSON.stringify(zod.data));
    expect(quick, label).toEqual(zod.data);
  } else if (!mayStepAside) {
    expect(zod.success, `the quick check is unsure of what zod accepts: ${label}`).toBe(false);
  }
  return zod.success;
}

function shapeKeys(checker: QuickChecker<unknown>): string[] {
  return Object.keys((checker.schema() as unknown as { shape: object }).shape);
}

/** The smallest value with every required field (a group needs its hooks array). */
function base(name: string): Record<string, unknown> {
  if (name === "trustFile") return { version: 1, projects: {} };
  return name === "group" ? { hooks: [] } : {};
}

describe("quick checks agree with the zod schemas", () => {
  for (const [name, make] of Object.entries(checkers)) {
    it(`${name}: every field with every probe`, () => {
      const checker = make();
      const fields = [...shapeKeys(checker), "matchers", "Matcher", "bogus", "hooks", "event"];
      let accepted = 0;
      let rejected = 0;
      for (const field of fields) {
        for (const probe of probes) {
          const ok = agree(checker, { ...base(name), [field]: probe });
          if (ok) accepted++;
          else rejected++;
        }
      }
      // Both sides are exercised for every schema.
      expect(accepted).toBeGreaterThan(10);
      expect(rejected).toBeGreaterThan(0);
    });

    it(`${name}: values that are not objects, and nested settings`, () => {
      const checker = make();
      for (const probe of probes) agree(checker, probe);
      for (const probe of probes) agree(checker, { ...base(name), compat: { cagent: probe } });
      agree(checker, { ...base(name), ...protoKey }, true);
      agree(checker, { ...base(name), headers: protoKey, input: protoKey }, true);
      agree(checker, { ...base(name), hooks: undefined }, true);
    });

    it(`${name}: random mixes of fields`, () => {
      const checker = make();
      const fields = [...shapeKeys(checker), "extra"];
      let seed = 12345;
      const next = (n: number) => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        return seed % n;
      };
      let accepted = 0;
      for (let i = 0; i < 1500; i++) {
        const value: Record<string, unknown> = base(name);
        const count = 1 + next(5);
        for (let j = 0; j < count; j++) {
          // Mostly values that fit the field, so whole objects are often valid.
          const field = fields[next(fields.length)] as string;
          value[field] = probes[next(probes.length)];
        }
        if (agree(checker, value)) accepted++;
      }
      expect(accepted).toBeGreaterThan(20);
    });
  }

  it("entries as hook files write them are answered without zod", () => {
    const handler = {
      type: "command",
      command: "echo 1 >> 'count'",
      timeout: 30,
      async: false,
      headers: { A: "b" },
      args: ["x"],
      input: { path: 1 },
      onTimeout: "block",
      maxTurns: 3,
    };
    expect(isSure(handlerInputSchema().quick(handler))).toBe(true);
    agree(handlerInputSchema(), handler);
    const group = { matcher: "read_file", hooks: [handler, { bad: 1 }] };
    expect(isSure(groupSchema().quick(group))).toBe(true);
    agree(groupSchema(), group);
    const entry = { match: "read_file", command: "echo 0", timeout: 5000 };
    expect(isSure(reasonixEntrySchema().quick(entry))).toBe(true);
    agree(reasonixEntrySchema(), entry);
    const settings = { model: "x", hooks: { PreToolUse: [group] }, compat: { cagent: ["a"] } };
    expect(isSure(keelSettingsSchema().quick(settings))).toBe(true);
    agree(keelSettingsSchema(), settings);
  });
});
