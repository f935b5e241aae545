/** Automatic compaction through `keel run`: at the threshold, and after a context-length error. */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { autoCompactThreshold, isContextLengthError } from "../../src/agent/auto-compact.js";
import { reply, script } from "../../src/sim/index.js";
import { commandHook, hookScript, keel, type World, worldPerTest } from "./harness.js";

const newWorld = worldPerTest();
const SUMMARY = { lastUserContains: "Summarize this conversation" };

function logHooks(w: World, settings: Record<string, unknown>): string {
  const log = join(w.root, "events.log");
  const logger = hookScript(w, "log.sh", `cat >> "${log}"\necho >> "${log}"`);
  writeFileSync(
    join(w.home, "settings.json"),
    JSON.stringify({
      ...settings,
      hooks: {
        PreCompact: [commandHook(logger)],
        PostCompact: [commandHook(logger)],
        SessionStart: [commandHook(logger)],
        InstructionsLoaded: [commandHook(logger)],
      },
    }),
  );
  return log;
}

function payloads(log: string): Record<string, unknown>[] {
  return readFileSync(log, "utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

describe("automatic compaction", () => {
  it("defaults to a fraction of the model's context window and can be switched off", () => {
    expect(autoCompactThreshold("deepseek-v4-flash", {})).toBe(800_000);
    expect(autoCompactThreshold("deepseek-chat", {})).toBe(102_400);
    expect(autoCompactThreshold("deepseek-chat", { thresholdTokens: 5000 })).toBe(5000);
    expect(autoCompactThreshold("deepseek-chat", { auto: false })).toBeNull();
    expect(
      isContextLengthError(
        "This model's maximum context length is 131072 tokens. However, you requested 140000 tokens (140000 in the messages, 0 in the completion). Please reduce the length of the messages or completion.",
      ),
    ).toBe(true);
    expect(isContextLengthError("Authentication Fails")).toBe(false);
  });

  it("compacts before the next request once prompt_tokens reach the threshold, as a counted new turn", async () => {
    const w = await newWorld(
      script(
        reply().tool("list_dir", { path: "." }),
        reply().when(SUMMARY).text("SUMMARY: listed the project."),
        reply().text("All done."),
      ),
    );
    writeFileSync(join(w.project, "AGENTS.md"), "Rule: be brief.\n");
    const log = logHooks(w, { compaction: { thresholdTokens: 1000 } });
    const r = await keel(w, ["run", "look around", "--output-format", "stream-json"]);
    expect(r.code).toBe(0);
    const events = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const compacted = events.find((e) => e.type === "compacted");
    expect(compacted).toMatchObject({ trigger: "auto", beforeMessages: 3, afterMessages: 1 });
    expect(compacted.costUsd).toBeGreaterThan(0);
    expect(events.at(-1)).toMatchObject({ type: "result", result: "All done." });

    const [first, summary, after] = w.sim.requests;
    if (!first || !summary || !after) throw new Error("expected three requests");
    // The summary request extends the conversation, so it still hits the cache.
    expect(summary.messageTexts.slice(0, first.messageTexts.length)).toEqual(first.messageTexts);
    expect(summary.hitTokens).toBeGreaterThan(0);
    // Then a new turn: the summary, the memory again, and the instruction to carry on.
    expect(after.messages).toHaveLength(2);
    const resumed = after.messages[1]?.content ?? "";
    expect(resumed).toMatch(
      /^This session was compacted\. Summary of the conversation so far:\n\nSUMMARY: listed the project\./,
    );
    expect(resumed).toContain("Rule: be brief.");
    expect(resumed).toMatch(/Continue the current task from the summary above/);
    expect(after.messageTexts[0]).toBe(first.messageTexts[0]);
    expect(after.toolsText).toBe(first.toolsText);

    // keel stats: what the compaction cost and what each later request no longer sends.
    const stats = await keel(w, ["stats"]);
    expect(stats.stdout).toMatch(/Compactions: 1 \(1 automatic\); the summaries cost \$0\.\d{4}/);
    // `before` is the prompt of the request that crossed the threshold, `after` the next one's.
    const saved = Math.max(0, first.promptTokens - after.promptTokens);
    expect(stats.stdout).toContain(
      `each later request sends ${saved.toLocaleString("en-US")} fewer prompt tokens`,
    );
    const json = JSON.parse((await keel(w, ["stats", "--json"])).stdout);
    expect(json.compactions).toMatchObject({ compactions: 1, automatic: 1 });
    expect(json.compactions.summaryCostUsd).toBeCloseTo(compacted.costUsd, 10);
    expect(statSync(join(w.home, "compactions.jsonl")).mode & 0o777).toBe(0o600);
    const seq = payloads(log).map(
      (p) => `${p.hook_event_name}:${p.trigger ?? p.source ?? p.load_reason ?? ""}`,
    );
    expect(seq).toEqual([
      "SessionStart:startup",
      "InstructionsLoaded:session_start",
      "PreCompact:auto",
      "PostCompact:auto",
      "SessionStart:compact",
      "InstructionsLoaded:compact",
    ]);
  });

  it("a resumed session counts from the size it was left at: its first turn compacts first", async () => {
    const w = await newWorld(
      script(
        reply().text("First answer."),
        reply().when(SUMMARY).text("SUMMARY: said hello."),
        reply().text("Second answer."),
      ),
    );
    logHooks(w, { compaction: { thresholdTokens: 1000 } });
    const first = await keel(w, ["run", "hello"]);
    expect(first.code).toBe(0);
    expect(w.sim.requests[0]?.promptTokens).toBeGreaterThanOrEqual(1000);
    const r = await keel(w, ["run", "-c", "and now?", "--output-format", "stream-json"]);
    expect(r.code).toBe(0);
    const events = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(events.find((e) => e.type === "compacted")).toMatchObject({ trigger: "auto" });
    expect(events.at(-1)).toMatchObject({ type: "result", result: "Second answer." });
    expect(w.sim.requests[1]?.messages.at(-1)?.content).toContain("Summarize this conversation");
  });

  it("compacts and retries once when the provider says the context is too long", async () => {
    const big = `${"lorem ipsum dolor sit amet ".repeat(5)}\n`.repeat(400);
    const w = await newWorld(
      script(
        reply().tool("read_file", { path: "big.txt" }),
        reply().when(SUMMARY).text("SUMMARY: big.txt is filler text."),
        reply().text("It is filler."),
      ).contextTokens(4000),
    );
    writeFileSync(join(w.project, "big.txt"), big);
    const log = logHooks(w, {});
    const r = await keel(w, ["run", "what is in big.txt?", "--output-format", "json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).result).toBe("It is filler.");
    const reqs = w.sim.requests;
    expect(reqs.map((q) => q.status)).toEqual([200, 400, 200, 200]);
    expect(reqs[1]?.error).toMatch(
      /^This model's maximum context length is 4000 tokens\. However, you requested \d+ tokens/,
    );
    // The summary request goes out shrunk (the big result cut), then the request is retried.
    expect(reqs[2]?.messages.at(-1)?.content).toMatch(/^Summarize this conversation/);
    expect(reqs[2]?.messages.find((m) => m.role === "tool")?.content).toMatch(
      /characters left out/,
    );
    expect(reqs[3]?.messages[1]?.content).toMatch(/SUMMARY: big\.txt is filler text\./);
    expect(
      payloads(log).map((p) => `${p.hook_event_name}:${p.trigger ?? p.source ?? ""}`),
    ).toContain("PreCompact:auto");
  });

  it("a context-length error that compaction cannot fix fails the turn once, with the provider's words", async () => {
    const w = await newWorld(script(reply().text("never")).contextTokens(100));
    const r = await keel(w, ["run", "hi"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/maximum context length is 100 tokens/);
    // The request, then one compaction attempt (nothing to shrink below the prefix), no loop.
    expect(w.sim.requests.length).toBeLessThanOrEqual(3);
  });

  it("sends a long tool result trimmed, once, and keeps it whole in the session file", async () => {
    const w = await newWorld(
      script(
        reply().tool("read_file", { path: "long.txt" }),
        reply().tool("list_dir", { path: "." }),
        reply().text("ok"),
        reply().text("more"),
      ),
    );
    const lines = Array.from({ length: 200 }, (_, i) => `line ${i} ${"x".repeat(20)}`);
    writeFileSync(join(w.project, "long.txt"), lines.join("\n"));
    writeFileSync(
      join(w.home, "settings.json"),
      JSON.stringify({ compaction: { toolResultMaxChars: 1000 } }),
    );
    const r = await keel(w, ["run", "read it", "--output-format", "json"]);
    expect(r.code).toBe(0);
    const [, second, third] = w.sim.requests;
    const sent = second?.messages.at(-1)?.content ?? "";
    expect(sent).toMatch(/characters of this result were left out/);
    expect(sent).toContain("line 0 ");
    expect(sent).toContain("line 199 ");
    expect(sent).not.toContain("line 100 ");
    // Rendered once: the next request replays the same bytes.
    expect(third?.messageTexts.slice(0, second?.messageTexts.length)).toEqual(second?.messageTexts);
    const { sessionId } = JSON.parse(r.stdout);
    const { execFileSync } = await import("node:child_process");
    const file = execFileSync("grep", ["-rl", sessionId, w.home], { encoding: "utf8" })
      .split("\n")
      .find((f) => f.endsWith(".jsonl") && f.includes(sessionId));
    const events = readFileSync(file ?? "", "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .filter((e) => e.type === "event" && e.kind === "tool_output");
    expect(events).toHaveLength(1);
    expect(events[0].content).toContain("line 100 ");
    // The session resumes with the trimmed bytes it sent, not the whole output.
    const again = await keel(w, ["run", "more", "--continue"]);
    expect(again.code).toBe(0);
    const resumed = w.sim.requests.at(-1);
    const sentBefore = third?.messageTexts ?? [];
    expect(resumed?.messageTexts.slice(0, sentBefore.length)).toEqual(sentBefore);
  });
});
