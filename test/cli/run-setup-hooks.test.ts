/**
 * Setup fires as Claude Code fires it: `keel run --init` / `--maintenance` run Setup hooks with
 * that trigger before SessionStart (the trigger is the matcher field), with CLAUDE_ENV_FILE; a
 * plain run fires none. Through the real entry point against the simulator.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { commandHook, hookScript, keel, type World, worldPerTest } from "../agent/harness.js";

const newWorld = worldPerTest();

/** User-level Claude Code settings (`~/.claude/settings.json`: trusted). */
function writeClaudeSettings(world: World, hooks: Record<string, unknown[]>): void {
  mkdirSync(join(world.root, ".claude"), { recursive: true });
  writeFileSync(join(world.root, ".claude", "settings.json"), JSON.stringify({ hooks }));
}

/** A hook that appends its payload plus its CLAUDE_ENV_FILE to `<root>/events.jsonl`. */
function recorder(world: World, label: string): string {
  const out = join(world.root, "events.jsonl");
  return hookScript(
    world,
    `${label}.sh`,
    `printf '{"label":"%s","envFile":"%s","payload":%s}\\n' "${label}" "$CLAUDE_ENV_FILE" "$(cat)" >> "${out}"`,
  );
}

function recorded(
  world: World,
): { label: string; envFile: string; payload: Record<string, unknown> }[] {
  let text = "";
  try {
    text = readFileSync(join(world.root, "events.jsonl"), "utf8");
  } catch {
    return [];
  }
  return text
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
}

function settings(world: World): void {
  writeClaudeSettings(world, {
    Setup: [
      commandHook(recorder(world, "setup-init"), "init"),
      commandHook(recorder(world, "setup-maintenance"), "maintenance"),
    ],
    SessionStart: [commandHook(recorder(world, "start"))],
  });
}

describe("keel run: Setup hooks", () => {
  it("--init fires Setup (trigger init) before SessionStart, with CLAUDE_ENV_FILE", async () => {
    const world = await newWorld(script(reply().text("done")));
    settings(world);
    const r = await keel(world, ["run", "go", "--init"]);
    expect(r.code).toBe(0);
    const runs = recorded(world);
    expect(runs.map((x) => x.label)).toEqual(["setup-init", "start"]);
    const setup = runs[0];
    expect(setup?.payload).toMatchObject({
      hook_event_name: "Setup",
      trigger: "init",
      cwd: world.project,
    });
    expect(setup?.envFile).not.toBe("");
  });

  it("--maintenance fires only the hooks whose matcher is maintenance", async () => {
    const world = await newWorld(script(reply().text("done")));
    settings(world);
    const r = await keel(world, ["run", "go", "--maintenance"]);
    expect(r.code).toBe(0);
    const runs = recorded(world);
    expect(runs.map((x) => x.label)).toEqual(["setup-maintenance", "start"]);
    expect(runs[0]?.payload).toMatchObject({ hook_event_name: "Setup", trigger: "maintenance" });
  });

  it("a plain run fires no Setup hook", async () => {
    const world = await newWorld(script(reply().text("done")));
    settings(world);
    const r = await keel(world, ["run", "go"]);
    expect(r.code).toBe(0);
    expect(recorded(world).map((x) => x.label)).toEqual(["start"]);
  });

  it("--init and --maintenance together are refused, naming both", async () => {
    const world = await newWorld(script(reply().text("done")));
    settings(world);
    const r = await keel(world, ["run", "go", "--init", "--maintenance"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("--init and --maintenance cannot be used together");
    expect(recorded(world)).toEqual([]);
  });
});

describe("keel run: FileChanged hooks", () => {
  it("a file the matcher names, written by a tool, fires FileChanged with its path and CLAUDE_ENV_FILE", async () => {
    const world = await newWorld(
      script(
        reply().tool("write_file", { path: ".env", content: "A=1\n" }),
        // Time for the watcher's quiet period and the hook, before the session ends.
        reply().tool("shell", { command: "sleep 1" }),
        reply().text("done"),
      ),
    );
    writeClaudeSettings(world, {
      FileChanged: [commandHook(recorder(world, "changed"), ".env")],
    });
    const r = await keel(world, ["run", "go", "--yes"]);
    expect(r.code).toBe(0);
    const runs = recorded(world);
    expect(runs.length).toBeGreaterThan(0);
    expect(runs[0]?.payload).toMatchObject({
      hook_event_name: "FileChanged",
      file_path: join(world.project, ".env"),
    });
    expect(["add", "change"]).toContain(runs[0]?.payload.event);
    expect(runs[0]?.envFile).not.toBe("");
  });
});
