/**
 * Thinking mode with tools: every assistant turn that called a tool goes back with its
 * `reasoning_content`, even an empty one, or DeepSeek (and the simulator) answer 400.
 */
import { describe, expect, it } from "vitest";
import { script } from "../../src/sim/index.js";
import { keel, worldPerTest } from "./harness.js";

const newWorld = worldPerTest();

describe("reasoning_content within tool turns", () => {
  it("is passed back, empty or not, through a multi-step keel run", async () => {
    const world = await newWorld(
      script(
        { reasoning: "", toolCalls: [{ name: "list_dir", arguments: { path: "." } }] },
        { reasoning: "Now glob.", toolCalls: [{ name: "glob", arguments: { pattern: "*" } }] },
        { reasoning: "Done thinking.", text: "All listed." },
      ),
    );
    const r = await keel(world, ["run", "list things", "--output-format", "json"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).result).toBe("All listed.");
    const statuses = world.sim.requests.map((q) => q.status);
    expect(statuses).toEqual([200, 200, 200]);
    const last = world.sim.requests[2]?.messages ?? [];
    const assistants = last.filter((m) => m.role === "assistant");
    expect(assistants.map((m) => m.reasoning_content)).toEqual(["", "Now glob."]);
  });
});
