/**
 * The prefix invariant over the session features of issue 11: with project memory, a custom
 * command, a task sub-agent, harvest and branching in one session, every request of the main
 * conversation extends the previous one byte for byte (side requests — the sub-agent's, the
 * harvest's — are their own conversations, each also append-only); across an automatic
 * compaction, the one sanctioned rewrite, system + tools stay identical.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { keel, type World, worldPerTest } from "./harness.js";

const newWorld = worldPerTest();
type Req = World["sim"]["requests"][number];

function assertAppendOnly(reqs: readonly Req[]): void {
  expect(reqs.length).toBeGreaterThan(1);
  for (let i = 1; i < reqs.length; i++) {
    const prev = reqs[i - 1];
    const next = reqs[i];
    if (!prev || !next) throw new Error("missing request");
    expect(next.messageTexts.slice(0, prev.messageTexts.length)).toEqual(prev.messageTexts);
    expect((next.messagesText ?? "").startsWith((prev.messagesText ?? "").slice(0, -1))).toBe(true);
    expect(next.toolsText).toBe(prev.toolsText);
  }
}

describe("the prefix invariant with memory, commands, sub-agents, harvest and branching", () => {
  it("holds for the main conversation and for each side conversation", async () => {
    const SUB = { lastUserContains: "FIND" };
    const w = await newWorld(
      script(
        // Turn 1 (a custom command): a task, then an answer.
        reply()
          .when({ hasTools: true, jsonMode: false })
          .reasoning("Delegate the search.")
          .tool("task", {
            description: "find the port",
            prompt: "FIND the port",
          }),
        reply()
          .when({ jsonMode: true })
          .text('{"subgoals":["delegate"],"hypotheses":[],"uncertainties":[],"rejectedPaths":[]}'),
        reply().when(SUB).tool("read_file", { path: "notes.txt" }),
        reply().when(SUB).text("port=8080 in notes.txt"),
        reply().when({ jsonMode: false }).text("The port is 8080."),
        // Turn 2 (resumed, branched 2 ways): identical samples, one picked.
        reply().when({ temperature: 0 }).text("Yes, 8080."),
        reply().when({ temperature: 1 }).text("Yes: the port is 8080, as found."),
        // Turn 3 (resumed): plain.
        reply().text("Bye."),
      ),
    );
    writeFileSync(join(w.project, "AGENTS.md"), "Answer briefly.\n");
    writeFileSync(join(w.project, "notes.txt"), "port=8080\n");
    mkdirSync(join(w.project, ".keel", "commands"), { recursive: true });
    writeFileSync(join(w.project, ".keel", "commands", "port.md"), "Which port does $1 use?");
    expect((await keel(w, ["run", "/port the-server", "--harvest"])).code).toBe(0);
    expect((await keel(w, ["run", "sure?", "--continue", "--branch", "2"])).code).toBe(0);
    expect((await keel(w, ["run", "thanks", "--continue"])).code).toBe(0);

    const reqs = w.sim.requests;
    const isSub = (q: Req) => q.messages[1]?.content === "FIND the port";
    const main = reqs.filter((q) => !q.jsonMode && !isSub(q));
    // The two branch samples are the same request: keep one of them for the chain.
    const chain = main.filter((q, i) => i === 0 || q.messagesText !== main[i - 1]?.messagesText);
    expect(main.length - chain.length).toBe(1);
    assertAppendOnly(chain);
    assertAppendOnly(reqs.filter(isSub));
    // Memory and the expanded command are in the first user message, not the system prompt.
    expect(chain[0]?.messages[0]?.content).not.toContain("Answer briefly.");
    expect(chain[0]?.messages[1]?.content).toMatch(
      /Answer briefly\.[\s\S]*Which port does the-server use\?$/,
    );
    // Only the picked sample entered the log.
    const last = chain.at(-1);
    expect(last?.messages.filter((m) => m.role === "assistant").map((m) => m.content)).toEqual([
      "",
      "The port is 8080.",
      "Yes, 8080.",
    ]);
  });

  it("across an automatic compaction, system and tools stay byte-identical", async () => {
    const w = await newWorld(
      script(
        reply().tool("read_file", { path: "big.txt" }),
        reply().tool("glob", { pattern: "*" }),
        reply().when({ lastUserContains: "Summarize this conversation" }).text("SUMMARY."),
        reply().text("Done."),
      ),
    );
    const line = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu\n";
    writeFileSync(join(w.project, "big.txt"), line.repeat(200));
    writeFileSync(
      join(w.home, "settings.json"),
      JSON.stringify({ compaction: { thresholdTokens: 3000 } }),
    );
    expect((await keel(w, ["run", "go"])).code).toBe(0);
    const reqs = w.sim.requests;
    expect(reqs).toHaveLength(4);
    const [first, second, summary, after] = reqs;
    if (!first || !second || !summary || !after) throw new Error("missing request");
    expect(first.promptTokens).toBeLessThan(3000);
    expect(second.promptTokens).toBeGreaterThanOrEqual(3000);
    // Up to the compaction every request extends the last, the summary request included.
    assertAppendOnly([first, second, summary]);
    // The rewrite: same system + tools, a new log holding the summary.
    expect(after.messageTexts[0]).toBe(first.messageTexts[0]);
    expect(after.toolsText).toBe(first.toolsText);
    expect(after.messages).toHaveLength(2);
    expect(after.messages[1]?.content).toMatch(/^This session was compacted/);
    expect(after.promptTokens).toBeLessThan(3000);
    // keel stats reports what the compaction saved on every later request.
    const stats = JSON.parse((await keel(w, ["stats", "--json"])).stdout);
    expect(stats.compactions.tokensSavedPerRequest).toBe(second.promptTokens - after.promptTokens);
    expect(stats.compactions.tokensSavedPerRequest).toBeGreaterThan(1000);
    expect(stats.compactions.usdSavedPerRequest).toBeGreaterThan(0);
  });
});
