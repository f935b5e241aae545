import { afterEach, describe, expect, it } from "vitest";
import { script } from "../../src/sim/builder.js";
import { type Simulator, startSimulator } from "../../src/sim/server.js";

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe("simulator GET /models", () => {
  it("lists the current models like DeepSeek, on /models and /v1/models, without a chat record", async () => {
    sim = await startSimulator({ script: script().text("hi") });
    for (const path of ["/models", "/v1/models"]) {
      const res = await fetch(`${sim.url}${path}`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { object: string; data: { id: string; object: string }[] };
      expect(body.object).toBe("list");
      expect(body.data.map((m) => m.id)).toContain("deepseek-v4-flash");
      expect(body.data.every((m) => m.object === "model")).toBe(true);
    }
    expect(sim.requests).toEqual([]);
    expect((await fetch(`${sim.url}/nothing`)).status).toBe(404);
  });
});
