/**
 * No request ever holds two user messages in a row (DeepSeek's thinking models have rejected
 * them), even after a failed request, an interrupt or a compaction, and the merge keeps every
 * answered request a byte prefix of the next one, across a resume too.
 */
import { describe, expect, it } from "vitest";
import { AppendOnlyLog } from "../../src/agent/log.js";
import { renderMessage } from "../../src/agent/render.js";
import { openAgentSession } from "../../src/agent/session.js";
import type { AgentOptions } from "../../src/agent/types.js";
import { createChatClient } from "../../src/llm/client.js";
import { httpPost, type Post } from "../../src/llm/http-post.js";
import type { ChatMessage } from "../../src/llm/types.js";
import { type ReplyInput, reply, script } from "../../src/sim/index.js";
import { agentFor, collect, type World, worldPerTest } from "./harness.js";

const newWorld = worldPerTest();

async function start(...replies: ReplyInput[]): Promise<World> {
  return newWorld(script(...replies));
}

/** Hooks off, and a failed request fails at once instead of being retried. */
function plainAgent(w: World, extra: Partial<AgentOptions> = {}) {
  return agentFor(w, {
    noHooks: true,
    client: createChatClient({ baseUrl: w.sim.url, apiKey: "sk-test", maxRetries: 0 }),
    ...extra,
  });
}

/** Roles of a request's messages, as the simulator parsed them. */
function roles(w: World, i: number): string[] {
  return (w.sim.requests[i]?.messages ?? []).map((m: ChatMessage) => m.role);
}

function hasUserRun(rs: readonly string[]): boolean {
  return rs.some((r, i) => r === "user" && rs[i - 1] === "user");
}

describe("AppendOnlyLog request view", () => {
  it("merges consecutive user messages for requests but stores each one", () => {
    const persisted: string[] = [];
    const log = new AppendOnlyLog({ onAppend: (b) => persisted.push(b) });
    log.append({ role: "user", content: "first" });
    log.append({ role: "user", content: "second" });
    expect(persisted).toEqual([
      renderMessage({ role: "user", content: "first" }),
      renderMessage({ role: "user", content: "second" }),
    ]);
    expect(log.stored()).toEqual(persisted);
    expect(log.messages()).toEqual([renderMessage({ role: "user", content: "first\n\nsecond" })]);
    log.append({ role: "assistant", content: "ok" });
    log.append({ role: "user", content: "third" });
    expect(log.messages()).toHaveLength(3);

    const resumed = new AppendOnlyLog();
    expect(resumed.restore(persisted)).toEqual({ ok: true });
    expect(resumed.messages()).toEqual(log.messages());
    expect(log.messagesWith([{ role: "user", content: "x" }]).at(-1)).toBe(
      renderMessage({ role: "user", content: "third\n\nx" }),
    );
  });
});

describe("no two user messages in a row", () => {
  it("after a failed request the next prompt joins the unanswered one, and resume keeps the bytes", async () => {
    const w = await start(
      reply().error(401),
      reply().text("answer to both"),
      reply().text("third answer"),
    );
    const session = openAgentSession({ keelHome: w.home, projectDir: w.project, model: "m" });
    const agent = await plainAgent(w, { session });
    const failed = await collect(agent.runTurn("first prompt"));
    expect(failed.at(-1)).toMatchObject({ type: "turn_end", stopReason: "error" });
    await collect(agent.runTurn("second prompt"));
    session.close();
    expect(roles(w, 1)).toEqual(["system", "user"]);
    expect(w.sim.requests[1]?.messages[1]?.content).toBe("first prompt\n\nsecond prompt");

    const again = openAgentSession({
      keelHome: w.home,
      projectDir: w.project,
      model: "m",
      resume: session.id,
    });
    expect(again.messages).toHaveLength(3);
    const resumed = await plainAgent(w, { session: again });
    await collect(resumed.runTurn("third prompt"));
    again.close();
    const answered = w.sim.requests[1]?.messageTexts ?? [];
    const next = w.sim.requests[2]?.messageTexts ?? [];
    expect(next.slice(0, answered.length)).toEqual(answered);
    expect(hasUserRun(roles(w, 2))).toBe(false);
  });

  it("after an interrupted request", async () => {
    const w = await start(
      reply().text("slow answer").latency({ chunkDelayMs: 60_000 }),
      reply().text("ok"),
    );
    const controller = new AbortController();
    let interrupted = false;
    // Interrupt once the server has accepted the request (headers in), as Ctrl+C would.
    const post: Post = async (url, headers, body, signal) => {
      const res = await httpPost(url, headers, body, signal);
      if (!interrupted) {
        interrupted = true;
        controller.abort();
      }
      return res;
    };
    const agent = await plainAgent(w, {
      client: createChatClient({ baseUrl: w.sim.url, apiKey: "sk-test", post }),
    });
    const events = await collect(agent.runTurn("first", { signal: controller.signal }));
    expect(events.at(-1)).toMatchObject({ type: "turn_end", stopReason: "aborted" });
    await collect(agent.runTurn("second"));
    expect(w.sim.requests).toHaveLength(2);
    const last = w.sim.requests[1]?.messages ?? [];
    expect(last.map((m) => m.role)).toEqual(["system", "user"]);
    expect(last[1]?.content).toBe("first\n\nsecond");
  });

  it("after an answer interrupted mid-stream, the text shown so far is kept, marked", async () => {
    const w = await start(
      reply()
        .text("Once upon a time there was a parser. It read its input once.")
        .latency({ chunkDelayMs: 200 }),
      reply().text("ok"),
    );
    const controller = new AbortController();
    const agent = await plainAgent(w);
    const events = [];
    for await (const ev of agent.runTurn("tell me a story", { signal: controller.signal })) {
      events.push(ev);
      if (ev.type === "text_delta") controller.abort();
    }
    expect(events.at(-1)).toMatchObject({ type: "turn_end", stopReason: "aborted" });
    const shown = events.flatMap((e) => (e.type === "text_delta" ? [e.text] : [])).join("");
    expect(shown.length).toBeGreaterThan(0);
    await collect(agent.runTurn("continue"));
    const last = w.sim.requests[1]?.messages ?? [];
    expect(last.map((m) => [m.role, m.content])).toEqual([
      ["system", expect.any(String)],
      ["user", "tell me a story"],
      ["assistant", `${shown.trimEnd()}\n\n[interrupted by the user]`],
      ["user", "continue"],
    ]);
  });

  it("after a compaction, for the summary request and the next prompt", async () => {
    const w = await start(
      reply().text("one"),
      reply().error(400, { message: "bad" }),
      reply().text("The summary."),
      reply().text("after"),
    );
    const agent = await plainAgent(w);
    await collect(agent.runTurn("p1"));
    await collect(agent.runTurn("p2 fails"));
    const compacted = await collect(agent.compact());
    expect(compacted.some((e) => e.type === "compacted")).toBe(true);
    await collect(agent.runTurn("p3"));
    for (let i = 0; i < w.sim.requests.length; i++) {
      expect(hasUserRun(roles(w, i)), `request ${i}: ${roles(w, i).join(",")}`).toBe(false);
    }
    const last = w.sim.requests.at(-1)?.messages ?? [];
    expect(last.map((m) => m.role)).toEqual(["system", "user"]);
    expect(last[1]?.content).toMatch(/The summary\.\n\np3$/);
  });
});
