/** Harvest and branching through `keel run`: the JSON-mode request, samples and temperatures. */
import { describe, expect, it } from "vitest";
import { fewestUncertainties, spreadTemperatures } from "../../src/agent/branch.js";
import { planLines } from "../../src/agent/reasoning-lines.js";
import { reply, script } from "../../src/sim/index.js";
import { keel, worldPerTest } from "./harness.js";

const newWorld = worldPerTest();
const HARVEST = { jsonMode: true };
const plan = (u: string[]) =>
  JSON.stringify({
    subgoals: ["read the config", "find the port"],
    hypotheses: ["it is in notes.txt"],
    uncertainties: u,
    rejectedPaths: ["grep everything"],
  });

function events(stdout: string): Record<string, unknown>[] {
  return stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
}

describe("harvest", () => {
  it("asks the cheap model once in JSON mode after a reply with reasoning; the plan never reaches the conversation", async () => {
    const w = await newWorld(
      script(
        reply()
          .reasoning("I need to look at the files first. Not sure where the port is.")
          .tool("list_dir", { path: "." }),
        reply()
          .when(HARVEST)
          .text(plan(["where the port is"])),
        reply().text("Done."),
      ),
    );
    const r = await keel(w, [
      "run",
      "find the port",
      "--harvest",
      "--output-format",
      "stream-json",
    ]);
    expect(r.code).toBe(0);
    const reqs = w.sim.requests;
    expect(reqs.map((q) => q.jsonMode)).toEqual([false, true, false]);
    const harvest = reqs[1];
    expect(harvest?.messages).toHaveLength(1);
    expect(harvest?.messages[0]?.content).toContain("Not sure where the port is.");
    expect(harvest?.messages[0]?.content).toMatch(/JSON/);
    expect(harvest?.toolsText ?? null).toBeNull();
    // The main conversation is untouched: request 3 extends request 1, and holds no plan text.
    const [first, , third] = reqs;
    expect(third?.messageTexts.slice(0, first?.messageTexts.length)).toEqual(first?.messageTexts);
    expect(third?.messagesText).not.toContain('find the port"]');
    expect(third?.messagesText).not.toContain("grep everything");
    const ev = events(r.stdout).find((e) => e.type === "harvest");
    expect(ev).toMatchObject({ plan: { uncertainties: ["where the port is"] } });
    expect(ev?.costUsd).toBeGreaterThan(0);
    // Its cost is the session's.
    const result = events(r.stdout).at(-1) as { usage: { promptTokens: number } };
    expect(result.usage.promptTokens).toBe(reqs.reduce((n, q) => n + q.promptTokens, 0));
  });

  it("is shown as the Reasonix post shows it", () => {
    expect(
      planLines({
        subgoals: ["a", "b", "c"],
        hypotheses: [],
        uncertainties: ["x"],
        rejectedPaths: ["r1", "r2"],
      }),
    ).toEqual(["‹ subgoals (3): a · b · c", "‹ uncertain (1): x", "‹ rejected (2): r1 · r2"]);
  });
});

describe("branching", () => {
  it("sends N identical requests at spread temperatures and keeps the shortest answer", async () => {
    const w = await newWorld(
      script(
        reply().when({ temperature: 0 }).text("A long answer that goes on and on."),
        reply().when({ temperature: 0.5 }).text("Short."),
        reply().when({ temperature: 1 }).text("A medium answer."),
      ),
    );
    const r = await keel(w, ["run", "answer", "--branch", "3", "--output-format", "stream-json"]);
    expect(r.code).toBe(0);
    const reqs = w.sim.requests;
    expect(reqs.map((q) => q.temperature).sort()).toEqual([0, 0.5, 1]);
    // Same bytes for every sample: they all share the cached prefix.
    expect(new Set(reqs.map((q) => q.messagesText)).size).toBe(1);
    expect(new Set(reqs.map((q) => q.toolsText)).size).toBe(1);
    const out = events(r.stdout);
    expect(out.at(-1)).toMatchObject({ type: "result", result: "Short." });
    const branch = out.find((e) => e.type === "branch") as { picked: number; samples: unknown[] };
    expect(branch.picked).toBe(1);
    expect(branch.samples).toHaveLength(3);
  });

  it("with harvest, picks the sample with the fewest uncertainties; only the pick enters the log", async () => {
    const w = await newWorld(
      script(
        reply().when({ temperature: 0 }).reasoning("R-zero thinking").text("Answer zero, short."),
        reply()
          .when({ temperature: 0.5 })
          .reasoning("R-half thinking")
          .text("Answer half, which is longer."),
        reply().when({ temperature: 1 }).reasoning("R-one thinking").text("Answer one."),
        reply()
          .when({ jsonMode: true, lastUserContains: "R-zero" })
          .text(plan(["a", "b"])),
        reply().when({ jsonMode: true, lastUserContains: "R-half" }).text(plan([])),
        reply()
          .when({ jsonMode: true, lastUserContains: "R-one" })
          .text(plan(["c"])),
        reply().text("Second turn."),
      ),
    );
    const r = await keel(w, ["run", "think", "--branch", "3", "--harvest"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("Answer half, which is longer.\n");
    expect(r.stderr).toContain(
      "branched 3 samples → picked #1   #0 T=0.0 u=2   ▸#1 T=0.5 u=0   #2 T=1.0 u=1",
    );
    expect(r.stderr).toContain("‹ subgoals (2): read the config · find the port");
    expect(w.sim.requests.filter((q) => q.jsonMode)).toHaveLength(3);
    // A resumed turn replays only the picked answer.
    const next = await keel(w, ["run", "again", "--continue", "--output-format", "json"]);
    expect(next.code).toBe(0);
    const last = w.sim.requests.at(-1);
    const assistants = last?.messages.filter((m) => m.role === "assistant") ?? [];
    expect(assistants.map((m) => m.content)).toEqual(["Answer half, which is longer."]);
  });

  it("spreads temperatures and selects pluggably", () => {
    expect(spreadTemperatures(3)).toEqual([0, 0.5, 1]);
    expect(spreadTemperatures(2)).toEqual([0, 1]);
    expect(spreadTemperatures(5)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    const s = (content: string, u: number) => ({
      index: 0,
      temperature: 0,
      message: { role: "assistant" as const, content },
      finishReason: "stop" as const,
      usage: null,
      plan: { subgoals: [], hypotheses: [], uncertainties: Array(u).fill("?"), rejectedPaths: [] },
    });
    expect(fewestUncertainties([s("aaaa", 1), s("bbbbbbbb", 0), s("c", 0)])).toBe(2);
  });
});
