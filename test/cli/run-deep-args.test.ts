/**
 * Tool-call arguments nested absurdly deep (attacks2/20): everything after the parse walks the
 * value recursively, so 300,000 levels used to end the run with "Maximum call stack size
 * exceeded" and no JSON output. Now the call is refused with an error result the model reads,
 * and the run goes on to its answer.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_ARGUMENT_DEPTH } from "../../src/agent/repair/index.js";
import { reply, script } from "../../src/sim/index.js";
import { keel, type World, worldPerTest } from "../agent/harness.js";

const newWorld = worldPerTest();

/** Deep enough to overflow any recursive walk (the red team sent 300,000; this streams faster). */
const DEPTH = 50_000;
const nested = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;

/** The tool messages the model got back, in order. */
function toolResults(world: World): string[] {
  const last = world.sim.requests.at(-1);
  return (last?.messages ?? [])
    .filter((m) => m.role === "tool")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}

describe("keel run: tool arguments nested too deep", () => {
  it("refuses the call with an error for the model; the run finishes and prints its JSON", async () => {
    const deep = `{"command":${nested(DEPTH)}}`;
    // Double-encoded: one JSON string holding the deep text, which the repair decodes.
    const doubled = JSON.stringify(`{"path":${nested(DEPTH)}}`);
    const world = await newWorld(
      script(
        reply().toolRaw("shell", deep),
        reply().toolRaw("read_file", doubled),
        reply().text("survived"),
      ),
    );
    const r = await keel(world, ["run", "go", "--output-format", "json"]);
    expect(r.stderr).not.toMatch(/Maximum call stack|RangeError/);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.result).toBe("survived");
    expect(out.warnings).toContain(
      `refused the shell call: its arguments nest deeper than ${MAX_ARGUMENT_DEPTH} levels`,
    );
    const results = toolResults(world);
    expect(results).toHaveLength(2);
    for (const [i, name] of [
      [0, "shell"],
      [1, "read_file"],
    ] as const) {
      expect(results[i]).toContain(
        `The arguments of your ${name} call nest arrays and objects deeper than ${MAX_ARGUMENT_DEPTH} levels, so the call was not run.`,
      );
    }
    // The log keeps "{}" for the refused calls, not the deep text: resuming never parses it.
    const sessions = join(world.home, "sessions");
    const files = readdirSync(sessions, { recursive: true, encoding: "utf8" }).filter((f) =>
      f.endsWith(".jsonl"),
    );
    const log = files.map((f) => readFileSync(join(sessions, f), "utf8")).join("");
    expect(log).toContain("survived");
    expect(log).not.toContain("[[[[[[[[");
  }, 180_000);

  it("deep JSON in the model's text (a leaked call) does not end the run either", async () => {
    // The scavengers read calls written as text: a bare JSON call object, DSML markup with a
    // JSON parameter. Both used to re-serialize the deep value recursively.
    const bare = `{"name":"read_file","arguments":{"path":${nested(DEPTH)}}}`;
    const dsml =
      '<｜DSML｜function_calls><｜DSML｜invoke name="read_file"><｜DSML｜parameter name="path">' +
      `${nested(DEPTH)}</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜function_calls>`;
    const world = await newWorld(script(reply().text(dsml), reply().text(`here: ${bare}`)));
    const r = await keel(world, ["run", "go", "--output-format", "json"]);
    expect(r.stderr).not.toMatch(/Maximum call stack|RangeError/);
    expect(r.code).toBe(0);
    // The DSML parameter is kept as text (read_file finds no such file); the bare object is
    // not read as a call at all and stays the answer's text.
    expect(toolResults(world)[0]).toMatch(/read_file/);
    expect(JSON.parse(r.stdout).result).toMatch(/^here: \{"name":"read_file"/);
  }, 180_000);

  it("the bound is exact: arguments at it are read, one level more is refused", async () => {
    const at = `{"path":".","x":${nested(MAX_ARGUMENT_DEPTH - 1)}}`;
    const over = `{"path":".","x":${nested(MAX_ARGUMENT_DEPTH)}}`;
    const world = await newWorld(
      script(
        reply().toolRaw("list_dir", at),
        reply().toolRaw("list_dir", over),
        reply().text("done"),
      ),
    );
    const r = await keel(world, ["run", "go", "--output-format", "json"]);
    expect(r.code).toBe(0);
    const [first, second] = toolResults(world);
    // Read and judged by the schema (list_dir takes no "x"), not refused for depth.
    expect(first).not.toMatch(/deeper than/);
    expect(first).toMatch(/\bx\b/);
    expect(second).toMatch(new RegExp(`deeper than ${MAX_ARGUMENT_DEPTH} levels`));
  });
});
