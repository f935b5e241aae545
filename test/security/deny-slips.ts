/**
 * The run both deny-rule files make: each command of a list (its `vN` the file it deletes, N its
 * place) through `keel run --yes` against the simulator, with the given user settings; the tool
 * calls' statuses and which files are still there.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { keel, type World } from "../agent/harness.js";

export async function runSlips(
  newWorld: (s: ReturnType<typeof script>) => Promise<World>,
  commands: readonly string[],
  settings: Record<string, unknown>,
): Promise<{ w: World; statuses: string[]; kept: boolean[] }> {
  const calls = commands.map((command) => reply().tool("shell", { command }));
  const w = await newWorld(script(...calls, reply().text("done")));
  for (let i = 0; i < commands.length; i++) writeFileSync(join(w.project, `v${i}`), "keep\n");
  writeFileSync(join(w.home, "settings.json"), JSON.stringify(settings));
  const r = await keel(w, ["run", "go", "--yes", "--output-format", "json"]);
  expect(r.code, r.stderr).toBe(0);
  const statuses = (JSON.parse(r.stdout).toolCalls as Array<{ status: string }>).map(
    (c) => c.status,
  );
  const kept = commands.map((_, i) => existsSync(join(w.project, `v${i}`)));
  return { w, statuses, kept };
}
