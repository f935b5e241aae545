import { describe, expect, it } from "vitest";
import type { AnyEventPayload } from "../../../src/hooks/events.js";
import { agentHandler, agentMaxTurns } from "../../../src/hooks/handlers/agent.js";
import type { HandlerRunRequest } from "../../../src/hooks/handlers/types.js";
import type { AgentRunner } from "../../../src/hooks/types.js";
import { handlerRequest } from "../../helpers/handler-request.js";

const payload: AnyEventPayload = {
  hook_event_name: "Stop",
  session_id: "sess-1",
  transcript_path: "/tmp/t.jsonl",
  cwd: "/proj",
  permission_mode: "default",
  stop_hook_active: false,
  last_assistant_message: "All done.",
};

function request(
  handler: { prompt: string; maxTurns?: number; model?: string },
  over: Partial<HandlerRunRequest> = {},
): HandlerRunRequest {
  return handlerRequest(
    {
      id: "a1",
      handler: { type: "agent", ...handler },
      source: { path: "/home/u/.keel/settings.json", dialect: "keel", scope: "user" },
      projectDir: "/work/project",
    },
    payload,
    over,
  );
}

function fakeRunner(answer: unknown) {
  const asked: Array<Parameters<AgentRunner>[0]> = [];
  const runner: AgentRunner = async (req) => {
    asked.push(req);
    // Deliberately loose: the handler must validate whatever the agent layer returns.
    return answer as { ok: boolean; reason: string };
  };
  return { asked, runner };
}

describe("agent handler", () => {
  it("passes the prompt with $ARGUMENTS, turns, model and the project dir to the runner", async () => {
    const { asked, runner } = fakeRunner({ ok: true, reason: "tests pass" });
    const result = await agentHandler(
      request(
        { prompt: "Verify the tests pass. Context: $ARGUMENTS", model: "deepseek-chat" },
        { agentRunner: runner },
      ),
    );
    expect(result).toMatchObject({ kind: "decided", outcome: "pass" });
    expect(asked[0]).toMatchObject({
      prompt: `Verify the tests pass. Context: ${JSON.stringify(payload)}`,
      maxTurns: 10,
      model: "deepseek-chat",
      cwd: "/work/project",
    });
    expect(asked[0]?.signal).toBeInstanceOf(AbortSignal);
  });

  it("appends the payload when the prompt has no $ARGUMENTS", async () => {
    const { asked, runner } = fakeRunner({ ok: true, reason: "" });
    await agentHandler(request({ prompt: "Check the build." }, { agentRunner: runner }));
    expect(asked[0]?.prompt).toBe(`Check the build.\n\n${JSON.stringify(payload)}`);
  });

  it("ok: false blocks with the sub-agent's reason", async () => {
    const { runner } = fakeRunner({ ok: false, reason: "2 tests fail in test/a.test.ts" });
    const result = await agentHandler(request({ prompt: "Verify." }, { agentRunner: runner }));
    expect(result).toMatchObject({
      kind: "decided",
      outcome: "block",
      message: "2 tests fail in test/a.test.ts",
    });
  });

  it.each([
    [undefined, 10],
    [3, 3],
    [50, 50],
    [500, 50],
    [0, 1],
    [-4, 1],
    [7.9, 7],
    [Number.NaN, 10],
  ])("maxTurns %s becomes %s", async (configured, expected) => {
    expect(agentMaxTurns(configured)).toBe(expected);
    const { asked, runner } = fakeRunner({ ok: true, reason: "" });
    await agentHandler(
      request(
        { prompt: "Verify.", ...(configured === undefined ? {} : { maxTurns: configured }) },
        { agentRunner: runner },
      ),
    );
    expect(asked[0]?.maxTurns).toBe(expected);
  });

  it("without a runner it warns", async () => {
    const result = await agentHandler(request({ prompt: "Verify." }));
    expect(result).toMatchObject({ outcome: "warn" });
    expect(result.kind === "decided" && result.message).toMatch(/^agent hooks need a model: /);
  });

  it("a runner that rejects is a warning carrying its message", async () => {
    const runner: AgentRunner = async () => {
      throw new Error("sub-agent used all 10 turns without answering");
    };
    const result = await agentHandler(request({ prompt: "Verify." }, { agentRunner: runner }));
    expect(result).toMatchObject({ outcome: "warn" });
    expect(result.kind === "decided" && result.message).toContain("used all 10 turns");
  });

  it.each([[{ ok: "no" }], [{ reason: "x" }], [null], ["ok"]])(
    "a malformed answer %j is a warning",
    async (answer) => {
      const { runner } = fakeRunner(answer);
      const result = await agentHandler(request({ prompt: "Verify." }, { agentRunner: runner }));
      expect(result).toMatchObject({ outcome: "warn" });
    },
  );

  it("a slow sub-agent times out and is told to stop", async () => {
    let seen: AbortSignal | undefined;
    const runner: AgentRunner = (req) => {
      seen = req.signal;
      return new Promise(() => {});
    };
    const result = await agentHandler(
      request({ prompt: "Verify." }, { agentRunner: runner, timeoutMs: 100 }),
    );
    expect(result).toMatchObject({ outcome: "timeout" });
    expect(seen?.aborted).toBe(true);
  });

  it("an already-cancelled firing does not leave the run pending", async () => {
    const controller = new AbortController();
    controller.abort();
    const runner: AgentRunner = () => new Promise(() => {});
    const result = await agentHandler(
      request({ prompt: "Verify." }, { agentRunner: runner, signal: controller.signal }),
    );
    expect(result).toMatchObject({ outcome: "cancelled" });
  });
});
