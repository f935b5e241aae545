/**
 * docs/hooks.md's payload tables are generated from the event table (src/hooks/event-table.ts):
 * the fields each event carries and the payload `keel hooks test` sends by default. The test
 * fails when the docs and the table disagree; `KEEL_WRITE_FIXTURES=1` rewrites the docs' tables.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { buildTestPayload } from "../../src/cli/commands/hooks/payload.js";
import { COMMON_PAYLOAD, EVENT_TABLE, HOOK_EVENTS } from "../../src/hooks/events.js";

const DOCS = join(import.meta.dirname, "..", "..", "docs", "hooks.md");

/** `name` plus its values (an enum's, or the field's `.describe()`), "optional" when it may be absent. */
function describeField(name: string, schema: z.ZodType): string {
  let s = schema;
  let optional = false;
  if (s.def.type === "optional") {
    optional = true;
    s = (s as z.ZodOptional<z.ZodType>).unwrap();
  }
  const values = s.def.type === "enum" ? (s as z.ZodEnum).options.join(", ") : s.description;
  const notes = [values, optional ? "optional" : undefined].filter((n) => n !== undefined);
  return `\`${name}\`${notes.length > 0 ? ` (${notes.join("; ")})` : ""}`;
}

function fieldsTable(): string {
  const rows = HOOK_EVENTS.filter((e) => EVENT_TABLE[e].firesInKeel !== false).map((e) => {
    const shape = EVENT_TABLE[e].payload().shape as Record<string, z.ZodType>;
    const fields = Object.entries(shape).map(([k, v]) => describeField(k, v));
    return `| \`${e}\` | ${fields.join(", ")} |`;
  });
  return ["| event | fields |", "|---|---|", ...rows].join("\n");
}

function samplesTable(): string {
  const common = new Set(Object.keys(COMMON_PAYLOAD().shape));
  const rows = HOOK_EVENTS.filter((e) => EVENT_TABLE[e].firesInKeel !== false).map((e) => {
    const payload = buildTestPayload({
      event: e,
      projectDir: "/home/me/project",
      keelHome: "/home/me/.keel",
    }) as Record<string, unknown>;
    const own = Object.fromEntries(Object.entries(payload).filter(([k]) => !common.has(k)));
    const json = JSON.stringify(own).replace(/^\{/, "{…,");
    return `| \`${e}\` | \`${json.replaceAll("|", "\\|")}\` |`;
  });
  return ["| event | payload |", "|---|---|", ...rows].join("\n");
}

/** Replaces (or checks) the text between `<!-- generated: NAME -->` and `<!-- end: NAME -->`. */
function region(doc: string, name: string, body: string): string {
  const start = `<!-- generated: ${name} (src/hooks/event-table.ts; test/hooks/event-docs.test.ts) -->`;
  const end = `<!-- end: ${name} -->`;
  const a = doc.indexOf(start);
  const b = doc.indexOf(end);
  if (a < 0 || b < a) throw new Error(`docs/hooks.md has no ${name} markers`);
  return `${doc.slice(0, a + start.length)}\n${body}\n${doc.slice(b)}`;
}

describe("docs/hooks.md payload tables", () => {
  it("equal what the event table generates", () => {
    const doc = readFileSync(DOCS, "utf8");
    const generated = region(
      region(doc, "payload-fields", fieldsTable()),
      "payload-samples",
      samplesTable(),
    );
    if (process.env.KEEL_WRITE_FIXTURES === "1") writeFileSync(DOCS, generated);
    expect(doc).toBe(generated);
  });

  it("list every event that fires in Keel", () => {
    const doc = readFileSync(DOCS, "utf8");
    for (const e of HOOK_EVENTS.filter((n) => EVENT_TABLE[n].firesInKeel !== false)) {
      expect(doc).toContain(`| \`${e}\` | {…,"hook_event_name":"${e}"`.replace("| {", "| `{"));
    }
  });
});
