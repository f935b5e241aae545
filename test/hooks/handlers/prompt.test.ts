import { describe, expect, it } from "vitest";
import type { AnyEventPayload } from "../../../src/hooks/events.js";
import { promptHandler } from "../../../src/hooks/handlers/prompt.js";
import type { HandlerRunRequest } from "../../../src/hooks/handlers/types.js";
import type { PromptRunner } from "../../../src/hooks/types.js";
import { handlerRequest } from "../../helpers/handler-request.js";

const payload: AnyEventPayload = {
  hook_event_name: "UserPromptSubmit",
  session_id: "sess-1",
  transcript_path: "/tmp/t.jsonl",
  cwd: "/proj",
  permission_mode: "default",
  prompt: "delete prod $& $ARGUMENTS",
};

function request(
  prompt: string,
  over: Partial<HandlerRunRequest> & { model?: string } = {},
): HandlerRunRequest {
  const { model, ...rest } = over;
  return handlerRequest(
    {
      id: "p1",
      handler: { type: "prompt", prompt, ...(model ? { model } : {}) },
      source: { path: "/home/u/.keel/settings.json", dialect: "keel", scope: "user" },
      projectDir: "/proj",
    },
    payload,
    rest,
  );
}

/** A runner that records what it was asked and answers with `answer`. */
function fakeRunner(answer: string | (() => Promise<string>)) {
  const asked: Array<Parameters<PromptRunner>[0]> = [];
  const runner: PromptRunner = async (req) => {
    asked.push(req);
    return typeof answer === "string" ? answer : answer();
  };
  return { asked, runner };
}

describe("prompt handler", () => {
  it("replaces $ARGUMENTS with the payload JSON and asks for a JSON answer", async () => {
    const { asked, runner } = fakeRunner('{"ok": true, "reason": "fine"}');
    const result = await promptHandler(
      request("Is this harmful? $ARGUMENTS — be strict.", {
        promptRunner: runner,
        model: "deepseek-chat",
      }),
    );
    expect(result).toMatchObject({ kind: "decided", outcome: "pass", message: null });
    expect(result.stdout).toBe('{"ok": true, "reason": "fine"}');
    const sent = asked[0]?.prompt ?? "";
    // The payload (which itself holds "$&" and "$ARGUMENTS") is inserted once, verbatim.
    expect(sent.startsWith(`Is this harmful? ${JSON.stringify(payload)} — be strict.`)).toBe(true);
    expect(sent.split("$ARGUMENTS")).toHaveLength(2);
    expect(sent.toLowerCase()).toContain("json");
    expect(sent).toContain('{"ok": boolean, "reason": string}');
    expect(asked[0]?.model).toBe("deepseek-chat");
  });

  it("appends the payload when the prompt has no $ARGUMENTS", async () => {
    const { asked, runner } = fakeRunner('{"ok": true}');
    await promptHandler(request("Is this harmful?", { promptRunner: runner }));
    const sent = asked[0]?.prompt ?? "";
    expect(sent.startsWith(`Is this harmful?\n\n${JSON.stringify(payload)}\n\n`)).toBe(true);
    expect(asked[0]).not.toHaveProperty("model");
  });

  it("ok: false blocks with the model's reason", async () => {
    const { runner } = fakeRunner('{"ok": false, "reason": "asks to delete production data"}');
    const result = await promptHandler(request("Harmful?", { promptRunner: runner }));
    expect(result).toMatchObject({
      kind: "decided",
      outcome: "block",
      message: "asks to delete production data",
    });
  });

  it("ok: false without a reason still blocks, with a generic reason", async () => {
    const { runner } = fakeRunner('{"ok": false}');
    const result = await promptHandler(request("Harmful?", { promptRunner: runner }));
    expect(result).toMatchObject({ outcome: "block" });
    expect(result.kind === "decided" && result.message).toContain("ok: false");
  });

  it("accepts the answer inside a ```json fence", async () => {
    const { runner } = fakeRunner('```json\n{"ok": false, "reason": "no"}\n```');
    expect(await promptHandler(request("Harmful?", { promptRunner: runner }))).toMatchObject({
      outcome: "block",
      message: "no",
    });
  });

  it.each([
    ["not JSON", "NO"],
    ["ok missing", '{"reason": "bad"}'],
    ["ok as a string", '{"ok": "false", "reason": "bad"}'],
    ["an array", "[false]"],
    ["empty", ""],
  ])("a malformed answer (%s) is a warning, never a block", async (_name, answer) => {
    const { runner } = fakeRunner(answer);
    const result = await promptHandler(request("Harmful?", { promptRunner: runner }));
    expect(result).toMatchObject({ kind: "decided", outcome: "warn", stdout: answer });
    expect(result.kind === "decided" && result.message).toContain("malformed answer");
  });

  it("a runner that rejects is a warning carrying its message", async () => {
    const runner: PromptRunner = async () => {
      throw new Error("401 invalid api key");
    };
    const result = await promptHandler(request("Harmful?", { promptRunner: runner }));
    expect(result).toMatchObject({ outcome: "warn" });
    expect(result.kind === "decided" && result.message).toContain("401 invalid api key");
  });

  it("a runner that throws synchronously is a warning too", async () => {
    const runner: PromptRunner = () => {
      throw new Error("sync failure");
    };
    const result = await promptHandler(request("Harmful?", { promptRunner: runner }));
    expect(result).toMatchObject({ outcome: "warn" });
  });

  it("without a runner it warns that prompt hooks need a model", async () => {
    const result = await promptHandler(request("Harmful?"));
    expect(result).toMatchObject({ outcome: "warn" });
    expect(result.kind === "decided" && result.message).toMatch(/^prompt hooks need a model: /);
  });

  it("a slow runner times out and its signal is aborted", async () => {
    let seenSignal: AbortSignal | undefined;
    const runner: PromptRunner = (req) => {
      seenSignal = req.signal;
      return new Promise<string>(() => {}); // never settles, ignores the signal
    };
    const result = await promptHandler(
      request("Harmful?", { promptRunner: runner, timeoutMs: 100 }),
    );
    expect(result).toMatchObject({ kind: "decided", outcome: "timeout" });
    expect(seenSignal?.aborted).toBe(true);
  });

  it("aborting the firing cancels the run", async () => {
    const controller = new AbortController();
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const runner: PromptRunner = (req) =>
      new Promise<string>((_resolve, reject) => {
        started();
        req.signal.addEventListener("abort", () => reject(new Error("aborted")));
      });
    const pending = promptHandler(
      request("Harmful?", { promptRunner: runner, signal: controller.signal }),
    );
    await running;
    controller.abort();
    expect(await pending).toMatchObject({ kind: "decided", outcome: "cancelled" });
  });

  it("caps the recorded answer", async () => {
    const answer = JSON.stringify({ ok: true, reason: "y".repeat(4000) });
    const { runner } = fakeRunner(answer);
    const result = await promptHandler(
      request("Harmful?", { promptRunner: runner, maxOutputBytes: 100 }),
    );
    expect(result).toMatchObject({ outcome: "pass", truncated: true });
    expect(result.stdout.length).toBe(100);
  });
});
