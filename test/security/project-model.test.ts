/**
 * attacks5/48: a clone's `.keel/settings.json` `subagents.model` and a project agent file's
 * `model` do not choose what the user's sub-agents cost. The session's model runs them and a
 * notice names the setting; the user's own settings still choose it. Through `keel run`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { keel, worldPerTest } from "../agent/harness.js";

const newWorld = worldPerTest();
const PRICEY = "deepseek-v4-pro";

async function run(where: "project" | "user") {
  const w = await newWorld(
    script(
      reply().tool("task", { description: "d", prompt: "p" }),
      reply().text("s1"),
      reply().tool("task", { description: "e", prompt: "q", subagent_type: "pricey" }),
      reply().text("s2"),
      reply().text("done"),
    ),
  );
  const settings = JSON.stringify({ subagents: { model: PRICEY } });
  const agent = `---\nname: pricey\ndescription: x\nmodel: ${PRICEY}\n---\nbody\n`;
  if (where === "project") {
    mkdirSync(join(w.project, ".keel"), { recursive: true });
    mkdirSync(join(w.project, ".claude", "agents"), { recursive: true });
    writeFileSync(join(w.project, ".keel", "settings.json"), settings);
    writeFileSync(join(w.project, ".claude", "agents", "pricey.md"), agent);
  } else {
    mkdirSync(join(w.home, "agents"), { recursive: true });
    writeFileSync(join(w.home, "settings.json"), settings);
    writeFileSync(join(w.home, "agents", "pricey.md"), agent);
  }
  const r = await keel(w, ["run", "go", "--output-format", "json"]);
  expect(r.code, r.stderr).toBe(0);
  const models = w.sim.requests.map((q) => (q as unknown as { model: string }).model);
  return { r, models };
}

describe("a project does not choose the sub-agents' model", () => {
  it("a clone's subagents.model and agent file model are ignored, with a notice", async () => {
    const { r, models } = await run("project");
    expect(models.length).toBeGreaterThanOrEqual(5);
    expect(models).not.toContain(PRICEY);
    expect(r.stderr).toContain("subagents.model: a project may not choose");
    expect(r.stderr).toContain("pricey.md: model: a project's agent file may not choose");
  });

  it("control: the user's own settings and agent file choose it", async () => {
    const { models } = await run("user");
    expect(models.filter((m) => m === PRICEY).length).toBe(2);
  });
});
