import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createChatClient } from "../../src/llm/client.js";
import {
  EXHAUSTED_TEXT,
  loadScriptFile,
  parseScript,
  reply,
  type Simulator,
  script,
  startSimulator,
} from "../../src/sim/index.js";
import { collect, doneOf, userRequest } from "../llm/helpers.js";

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "keel-sim-script-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let sim: Simulator | null = null;
afterEach(async () => {
  await sim?.close();
  sim = null;
});

describe("script validation", () => {
  it.each([
    [{ replies: [{ toolCalls: [{ name: 3 }] }] }, "replies[0].toolCalls[0].name"],
    [{ replies: [{ txt: "typo" }] }, "txt"],
    [{ replies: [{ error: { status: 200 } }] }, "replies[0].error.status"],
    [{ replies: [{ fault: { type: "nonsense" } }] }, "replies[0].fault.type"],
    [{ replies: [{ toolCalls: [{ name: "a", arguments: {}, rawArguments: "{}" }] }] }, "not both"],
    [{ replies: "none" }, "replies"],
  ])("reports %j at the offending field", (value, expected) => {
    const result = parseScript(value);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain(expected);
  });

  it("accepts a bare array of replies", () => {
    expect(parseScript([{ text: "hi" }]).ok).toBe(true);
  });

  it("names the file in load errors", async () => {
    const bad = join(dir, "bad.json");
    await writeFile(bad, '{"replies": [{"text": 1}]}');
    const result = await loadScriptFile(bad);
    expect(result).toEqual({
      ok: false,
      error: expect.stringContaining(`${bad}: replies[0].text`),
    });
    const broken = join(dir, "broken.json");
    await writeFile(broken, "{");
    expect(await loadScriptFile(broken)).toMatchObject({
      ok: false,
      error: expect.stringContaining("not valid JSON"),
    });
    expect(await loadScriptFile(join(dir, "missing.json"))).toMatchObject({
      ok: false,
      error: expect.stringContaining("ENOENT"),
    });
  });

  it("rejects an invalid script at start", async () => {
    await expect(startSimulator({ script: { replies: [{ text: 1 }] } as never })).rejects.toThrow(
      "replies[0].text",
    );
  });
});

describe("the script builder", () => {
  it("produces the same JSON as a script file", () => {
    const built = script()
      .reply((r) => r.reasoning("hmm").tool("shell", { command: "ls" }))
      .text("done")
      .error(429, { retryAfter: 1, times: 2 })
      .reply(reply().emptyArgs("read_file").when({ lastUserContains: "go" }))
      .toJSON();
    expect(built).toEqual({
      replies: [
        { reasoning: "hmm", toolCalls: [{ name: "shell", arguments: { command: "ls" } }] },
        { text: "done" },
        { error: { status: 429, retryAfter: 1 }, repeat: 2 },
        { fault: { type: "empty_arguments", name: "read_file" }, when: { lastUserContains: "go" } },
      ],
    });
    expect(parseScript(built).ok).toBe(true);
  });
});

describe("reply selection", () => {
  it("takes the first reply whose `when` matches, and flags an exhausted script", async () => {
    sim = await startSimulator({
      script: script()
        .reply((r) => r.text("for beta").when({ lastUserContains: "beta" }))
        .text("anything"),
    });
    const client = createChatClient({ baseUrl: sim.url, apiKey: "k" });
    const text = async (q: string) =>
      doneOf(await collect(client.stream(userRequest(q)))).message.content;
    expect(await text("alpha")).toBe("anything");
    expect(await text("beta")).toBe("for beta");
    expect(await text("gamma")).toBe(EXHAUSTED_TEXT);
    expect(sim.requests.map((r) => [r.replyIndex, r.scriptExhausted])).toEqual([
      [1, false],
      [0, false],
      [null, true],
    ]);
    sim.addReplies(reply().text("added later"));
    expect(await text("delta")).toBe("added later");
  });
});
