/**
 * `keel run --json-schema FILE` against the simulator: the schema is asked for in the user turn
 * (not the system prompt), a valid answer lands in `structured_output`, an invalid one gets one
 * repair request, a second invalid one fails the run naming what did not match, and a bad
 * schema file is an error naming the file before any model request.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { keel, type World, worldPerTest } from "../agent/harness.js";

const newWorld = worldPerTest();

const SCHEMA = {
  type: "object",
  properties: { name: { type: "string" }, count: { type: "integer", minimum: 1 } },
  required: ["name", "count"],
  additionalProperties: false,
};

function schemaFile(w: World, schema: unknown = SCHEMA, name = "schema.json"): string {
  const path = join(w.root, name);
  writeFileSync(path, typeof schema === "string" ? schema : JSON.stringify(schema));
  return path;
}

function run(w: World, file: string) {
  return keel(w, ["run", "count things", "--json-schema", file, "--output-format", "json"]);
}

describe("keel run --json-schema", () => {
  it("a valid answer is returned in structured_output; the schema is asked in the user turn only", async () => {
    const w = await newWorld(script(reply().text('{"name":"apples","count":3}')));
    const r = await run(w, schemaFile(w));
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.structured_output).toEqual({ name: "apples", count: 3 });
    expect(out.isError).toBe(false);
    const [system, user] = w.sim.requests[0]?.messages ?? [];
    expect(system?.content).not.toContain("JSON Schema");
    expect(user?.content).toContain("count things");
    expect(user?.content).toContain('"additionalProperties":false');
    expect(w.sim.requests).toHaveLength(1);
  });

  it("an invalid answer gets one repair request naming the problem; a valid repair is returned", async () => {
    const w = await newWorld(
      script(
        reply().text("There are 3 apples."),
        reply().text('```json\n{"name":"apples","count":3}\n```'),
      ),
    );
    const r = await run(w, schemaFile(w));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).structured_output).toEqual({ name: "apples", count: 3 });
    expect(w.sim.requests).toHaveLength(2);
    const repair = w.sim.requests[1]?.messages.at(-1);
    expect(repair?.role).toBe("user");
    expect(repair?.content).toContain("not JSON");
    // The repair is a later turn of the same conversation: the first request's bytes lead it.
    expect(w.sim.requests[1]?.messageTexts.slice(0, 2)).toEqual(
      w.sim.requests[0]?.messageTexts.slice(0, 2),
    );
  });

  it("invalid twice: exit 1, the validation errors named, structured_output null", async () => {
    const w = await newWorld(
      script(reply().text('{"name":7,"count":3}'), reply().text('{"name":"apples","count":0}')),
    );
    const file = schemaFile(w);
    const r = await run(w, file);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.isError).toBe(true);
    expect(out.structured_output).toBeNull();
    expect(out.error).toContain(file);
    expect(out.error).toContain("count:");
    expect(r.stderr).toContain("after one repair request");
    expect(w.sim.requests[1]?.messages.at(-1)?.content).toContain("name: ");
    expect(w.sim.requests).toHaveLength(2);
  });

  it("a bad schema file is an error naming the file, before any model request", async () => {
    const w = await newWorld(script(reply().text("{}")));
    const missing = join(w.root, "nope.json");
    let r = await run(w, missing);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`--json-schema ${missing}: no such file`);
    const broken = schemaFile(w, "{ not json", "broken.json");
    r = await run(w, broken);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`--json-schema ${broken}: not valid JSON`);
    const unusable = schemaFile(w, { type: "nope" }, "unusable.json");
    r = await run(w, unusable);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`--json-schema ${unusable}: not a usable JSON Schema`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(w.sim.requests).toHaveLength(0);
  });
});
