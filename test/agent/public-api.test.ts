/** The library entry point drives a whole session with nothing but its own exports. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import {
  type AgentEvent,
  createAgent,
  createBuiltinTools,
  createChatClient,
  reply,
  script,
  startSimulator,
} from "../../src/index.js";

it("runs a turn through the public API", async () => {
  const dir = mkdtempSync(join(tmpdir(), "keel-api-"));
  const sim = await startSimulator({
    script: script(reply().tool("list_dir", { path: "." }), reply().text("Empty project.")),
  });
  try {
    const agent = await createAgent({
      projectDir: dir,
      noHooks: true,
      client: createChatClient({ baseUrl: sim.url, apiKey: "sk-test" }),
      model: "deepseek-v4-flash",
      tools: createBuiltinTools({ cwd: dir }),
    });
    const events: AgentEvent[] = [];
    for await (const ev of agent.runTurn("What is here?")) events.push(ev);
    for await (const ev of agent.end("exit")) events.push(ev);
    expect(events.at(-1)).toMatchObject({
      type: "turn_end",
      text: "Empty project.",
      stopReason: "end",
    });
    expect(agent.stats().requests).toBe(2);
    expect(agent.stats().usage.promptTokens).toBeGreaterThan(0);
  } finally {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
