/**
 * `"onError": "block"` and `"hooksOnError": "block"` through `keel run --yes` against the
 * simulator: a PreToolUse guard whose `#!` interpreter is missing (exit 127 before it reads a
 * byte) lets the tool run by default, as in every agent, and blocks it when asked to.
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { commandHook, keel, type World, worldPerTest } from "../agent/harness.js";

const newWorld = worldPerTest();

/** A guard that cannot start: its interpreter does not exist. */
function brokenGuard(world: World): string {
  const dir = join(world.root, "hooks");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "guard.py");
  writeFileSync(path, "#!/no/such/python3\nimport sys; sys.exit(2)\n");
  chmodSync(path, 0o755);
  return path;
}

/** User-level Keel settings (trusted) with the guard on every shell call. */
function settings(
  world: World,
  handler: Record<string, unknown>,
  top: Record<string, unknown> = {},
) {
  const hooks = { PreToolUse: [commandHook(brokenGuard(world), "shell", handler)] };
  writeFileSync(join(world.home, "settings.json"), JSON.stringify({ ...top, hooks }, null, 2));
}

async function attempt(world: World) {
  const r = await keel(world, ["run", "make the file", "--yes", "--output-format", "json"]);
  return { r, wrote: existsSync(join(world.project, "pwned.txt")) };
}

const touch = () =>
  script(reply().tool("shell", { command: "touch pwned.txt" }), reply().text("done"));

describe("keel run: a guard that cannot start", () => {
  it("passes silently by default: the tool runs", async () => {
    const world = await newWorld(touch());
    settings(world, {});
    expect((await attempt(world)).wrote).toBe(true);
  });

  it('blocks the tool with "onError": "block" on the handler', async () => {
    const world = await newWorld(touch());
    settings(world, { onError: "block" });
    const { r, wrote } = await attempt(world);
    expect(wrote).toBe(false);
    const sent = JSON.stringify(world.sim.requests[1]?.messages.at(-1) ?? {});
    expect(sent).toContain("hook could not run");
    expect(r.code).toBe(0);
  });

  it('blocks the tool with "hooksOnError": "block" in the settings, for hooks that do not say', async () => {
    const world = await newWorld(touch());
    settings(world, {}, { hooksOnError: "block" });
    expect((await attempt(world)).wrote).toBe(false);
  });

  it('"onError": "allow" on the handler overrides the settings default', async () => {
    const world = await newWorld(touch());
    settings(world, { onError: "allow" }, { hooksOnError: "block" });
    expect((await attempt(world)).wrote).toBe(true);
  });
});
