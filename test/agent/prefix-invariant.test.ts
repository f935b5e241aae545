/**
 * THE PREFIX INVARIANT, byte for byte: through a session where hooks block a call, rewrite an
 * input, inject context after a tool and make Stop continue, every request's messages extend
 * the previous request's and the tool specs never change.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cacheHostileClient } from "../../bench/cache/hostile-client.js";
import { createAgent } from "../../src/agent/agent.js";
import { createChatClient } from "../../src/llm/client.js";
import { reply, script } from "../../src/sim/index.js";
import { createBuiltinTools } from "../../src/tools/registry.js";
import {
  agentFor,
  collect,
  commandHook,
  hookScript,
  keel,
  type World,
  worldPerTest,
  writeSettings,
} from "./harness.js";

const newWorld = worldPerTest();

function installHooks(w: World): void {
  const blockRm = hookScript(
    w,
    "block-rm.sh",
    `if grep -q '"rm '; then echo "no rm allowed here" >&2; exit 2; fi\nexit 0`,
  );
  const rewrite = hookScript(
    w,
    "rewrite.sh",
    `cat >/dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"path":"b.txt","content":"rewritten"}}}'`,
  );
  const lint = hookScript(
    w,
    "lint.sh",
    `cat >/dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lint: 0 problems"}}'`,
  );
  const stop = hookScript(
    w,
    "stop.sh",
    `input=$(cat)\ncase "$input" in *'"stop_hook_active":true'*) exit 0;; esac\ncase "$input" in *'All done.'*) echo "run the tests first" >&2; exit 2;; esac\nexit 0`,
  );
  const start = hookScript(w, "start.sh", "cat >/dev/null\necho 'This project uses pnpm.'");
  writeSettings(w, {
    SessionStart: [commandHook(start)],
    PreToolUse: [commandHook(blockRm, "shell"), commandHook(rewrite, "write_file")],
    PostToolUse: [commandHook(lint, "read_file")],
    Stop: [commandHook(stop)],
  });
}

function assertPrefixGrowth(w: World): void {
  const reqs = w.sim.requests;
  expect(reqs.length).toBeGreaterThan(1);
  for (let i = 1; i < reqs.length; i++) {
    const prev = reqs[i - 1];
    const next = reqs[i];
    if (prev === undefined || next === undefined) throw new Error("missing request");
    // Message by message, and as one byte string.
    expect(next.messageTexts.slice(0, prev.messageTexts.length)).toEqual(prev.messageTexts);
    const prevText = prev.messagesText ?? "";
    const nextText = next.messagesText ?? "";
    expect(nextText.startsWith(prevText.slice(0, -1))).toBe(true);
    expect(next.toolsText).toBe(prev.toolsText);
  }
}

describe("the prefix invariant", () => {
  it("holds byte for byte while hooks block, rewrite, inject and continue", async () => {
    const world = await newWorld(
      script(
        reply().tool("shell", { command: "rm -rf build" }),
        reply().tool("write_file", { path: "a.txt", content: "original" }),
        reply().reasoning("Let me check the file.").tool("read_file", { path: "b.txt" }),
        reply().text("All done."),
        reply().text("Tests pass; done."),
        reply().text("Second turn answer."),
      ),
    );
    installHooks(world);
    const w = world;
    const agent = await agentFor(w, { autoApprove: true });
    const first = await collect(agent.runTurn("Clean up and write a file."));
    const second = await collect(agent.runTurn("Anything else?"));
    await collect(agent.end("exit"));

    // Effects the user can observe.
    const results = first.filter((e) => e.type === "tool_result");
    expect(results.map((r) => r.type === "tool_result" && r.status)).toEqual([
      "blocked",
      "ok",
      "ok",
    ]);
    const [blocked, written, read] = results;
    expect(blocked?.type === "tool_result" && blocked.content).toContain("no rm allowed here");
    expect(written?.type === "tool_result" && written.input).toEqual({
      path: "b.txt",
      content: "rewritten",
    });
    expect(existsSync(join(w.project, "a.txt"))).toBe(false);
    expect(readFileSync(join(w.project, "b.txt"), "utf8")).toBe("rewritten");
    // PostToolUse context comes after the tool result, in a message of its own (not inside it).
    expect(read?.type === "tool_result" && read.content).not.toContain("lint: 0 problems");
    const afterRead = w.sim.requests[3]?.messages ?? [];
    expect(afterRead.at(-2)?.role).toBe("tool");
    expect(afterRead.at(-1)).toMatchObject({ role: "user" });
    expect(afterRead.at(-1)?.content).toContain("lint: 0 problems");
    expect(first.at(-1)).toMatchObject({
      type: "turn_end",
      stopReason: "end",
      text: "Tests pass; done.",
    });
    expect(second.at(-1)).toMatchObject({ type: "turn_end", text: "Second turn answer." });

    // SessionStart output is in the first user message, never the system prompt.
    const firstReq = w.sim.requests[0];
    expect(firstReq?.messages[0]?.content).not.toContain("pnpm");
    expect(firstReq?.messages[1]?.role).toBe("user");
    expect(firstReq?.messages[1]?.content).toContain("This project uses pnpm.");
    // The Stop block became a new user message carrying the reason.
    const afterStop = w.sim.requests[4]?.messages.at(-1);
    expect(afterStop?.role).toBe("user");
    expect(afterStop?.content).toContain("run the tests first");
    // Reasoning is passed back within the tool-using turn.
    expect(w.sim.requests[3]?.messageTexts.some((m) => m.includes("Let me check the file."))).toBe(
      true,
    );

    expect(w.sim.requests).toHaveLength(6);
    assertPrefixGrowth(w);
  });

  it("gives two sessions in one project an identical prefix on their first turn", async () => {
    const world = await newWorld(script(reply().text("one"), reply().text("two")));
    const a = await keel(world, ["run", "hello"]);
    const b = await keel(world, ["run", "hello"]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const [r0, r1] = world.sim.requests;
    expect(r0?.messageTexts[0]).toBe(r1?.messageTexts[0]);
    expect(r0?.toolsText).toBe(r1?.toolsText);
    expect(r0?.toolsText).not.toBeNull();
    // The second session's first request is served from the cache the first one built.
    expect(r1?.hitTokens).toBeGreaterThan(0);
    expect(r1?.hitTokens).toBe(r1?.cacheableLimitTokens);
  });
});

describe("the prefix check itself", () => {
  it("fails for the benchmark-only cache-hostile configuration", async () => {
    const world = await newWorld(script(reply().text("a"), reply().text("b")));
    const w = world;
    const agent = await createAgent({
      projectDir: w.project,
      noHooks: true,
      client: cacheHostileClient(
        createChatClient({ baseUrl: w.sim.url, apiKey: "sk-test" }),
        (() => {
          let t = Date.UTC(2026, 0, 1);
          return () => (t += 1000);
        })(),
      ),
      model: "deepseek-v4-flash",
      tools: createBuiltinTools({ cwd: w.project }),
    });
    await collect(agent.runTurn("one"));
    await collect(agent.runTurn("two"));
    expect(() => assertPrefixGrowth(w)).toThrow();
  });
});
