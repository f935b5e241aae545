/**
 * `keel run --effort`: the request carries what the model takes for the level (data/models.json:
 * DeepSeek V4's thinking switch and reasoning_effort), after the messages, so the prefix bytes
 * stay; hooks are told the level where each agent tells its hooks (Keel: every payload; Claude
 * Code: tool-use events, with CLAUDE_EFFORT; Codex: `model` everywhere, no effort).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import {
  commandHook,
  hookScript,
  keel,
  sentMessages,
  type World,
  worldPerTest,
  writeSettings,
} from "../agent/harness.js";

const newWorld = worldPerTest();

const turn = () => script(reply().tool("shell", { command: "echo hi" }), reply().text("done"));

/** A hook that appends its payload and `CLAUDE_EFFORT` (or `-`) to `<root>/<name>.jsonl`. */
function recorder(world: World, name: string): string {
  const out = join(world.root, `${name}.jsonl`);
  return hookScript(
    world,
    `${name}.sh`,
    // The payload is one line ending in a newline; the variable goes on the next.
    `cat >> "${out}"\nprintf '%s\\n' "\${CLAUDE_EFFORT:--}" >> "${out}"`,
  );
}

/** Each firing as [payload, CLAUDE_EFFORT or "-"]. */
function recorded(world: World, name: string): [Record<string, unknown>, string][] {
  const lines = readFileSync(join(world.root, `${name}.jsonl`), "utf8")
    .trim()
    .split("\n");
  const out: [Record<string, unknown>, string][] = [];
  for (let i = 0; i + 1 < lines.length; i += 2) {
    out.push([JSON.parse(lines[i] ?? "") as Record<string, unknown>, lines[i + 1] ?? ""]);
  }
  return out;
}

function byEvent(world: World, name: string) {
  return new Map(recorded(world, name).map(([p, env]) => [String(p.hook_event_name), { p, env }]));
}

const body = (world: World, i = 0) => JSON.parse(world.sim.requests[i]?.rawBody ?? "{}");

describe("keel run --effort", { timeout: 120_000 }, () => {
  it("sends DeepSeek's thinking and reasoning_effort after the same message bytes", async () => {
    const plain = await newWorld(turn());
    expect((await keel(plain, ["run", "go", "--yes"])).code).toBe(0);
    const world = await newWorld(turn());
    const r = await keel(world, ["run", "go", "--yes", "--effort", "max"]);
    expect(r.code).toBe(0);
    for (const i of [0, 1]) {
      expect(body(world, i)).toMatchObject({
        thinking: { type: "enabled" },
        reasoning_effort: "max",
      });
      expect(body(plain, i)).not.toHaveProperty("reasoning_effort");
      expect(body(plain, i)).not.toHaveProperty("thinking");
    }
    // The cached prefix (system prompt, tools, messages) is the same bytes with or without it.
    expect(world.sim.requests[0]?.toolsText).toBe(plain.sim.requests[0]?.toolsText);
    expect(sentMessages(world, 0)[0]).toBe(sentMessages(plain, 0)[0]);
  });

  it("hooks see model and effort: Keel's everywhere, Claude's on tool events with CLAUDE_EFFORT, Codex's model", async () => {
    const world = await newWorld(turn());
    const events = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"];
    const hooksFor = (name: string) =>
      Object.fromEntries(events.map((e) => [e, [commandHook(recorder(world, name))]]));
    writeSettings(world, hooksFor("keel"));
    mkdirSync(join(world.root, ".claude"), { recursive: true });
    writeFileSync(
      join(world.root, ".claude", "settings.json"),
      JSON.stringify({ hooks: hooksFor("claude") }),
    );
    mkdirSync(join(world.root, ".codex"), { recursive: true });
    writeFileSync(
      join(world.root, ".codex", "hooks.json"),
      JSON.stringify({ hooks: hooksFor("codex") }),
    );
    const r = await keel(world, ["run", "go", "--yes", "--effort", "max"]);
    expect(r.code).toBe(0);

    const native = byEvent(world, "keel");
    expect([...native.keys()].sort()).toEqual([...events].sort());
    for (const { p, env } of native.values()) {
      expect(p.model).toBe("deepseek-v4-flash");
      expect(p.effort).toEqual({ level: "max" });
      expect(env).toBe("max");
    }

    const claude = byEvent(world, "claude");
    for (const [event, { p, env }] of claude) {
      expect(p).not.toHaveProperty("model");
      const toolContext = ["PreToolUse", "PostToolUse", "Stop"].includes(event);
      expect(p.effort, event).toEqual(toolContext ? { level: "max" } : undefined);
      expect(env, event).toBe(toolContext ? "max" : "-");
    }

    const codex = byEvent(world, "codex");
    expect(codex.size).toBeGreaterThan(0);
    for (const { p, env } of codex.values()) {
      expect(p.model).toBe("deepseek-v4-flash");
      expect(p).not.toHaveProperty("effort");
      expect(env).toBe("-");
    }
  });

  it("a level the model lacks is mapped and said; hooks are told the level applied", async () => {
    const world = await newWorld(turn());
    writeSettings(world, { PreToolUse: [commandHook(recorder(world, "pre"))] });
    const r = await keel(world, ["run", "go", "--yes", "--effort", "low"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      "effort low: deepseek-v4-flash takes high, max (or none); using high",
    );
    expect(body(world)).toMatchObject({ reasoning_effort: "high" });
    expect(recorded(world, "pre")[0]?.[0].effort).toEqual({ level: "high" });
  });

  it("the shell tool gets CLAUDE_EFFORT while a level is set, as Claude Code's Bash does", async () => {
    const shellTurn = () =>
      script(
        reply().tool("shell", { command: `printf %s "\${CLAUDE_EFFORT:--}" > effort.txt` }),
        reply().text("done"),
      );
    const withLevel = await newWorld(shellTurn());
    expect((await keel(withLevel, ["run", "go", "--yes", "--effort", "low"])).code).toBe(0);
    // The level applied (low is mapped to high), as hooks are told.
    expect(readFileSync(join(withLevel.project, "effort.txt"), "utf8")).toBe("high");
    // Without a level, none — not even one inherited from whatever started Keel.
    const without = await newWorld(shellTurn());
    process.env.CLAUDE_EFFORT = "max";
    try {
      expect((await keel(without, ["run", "go", "--yes"])).code).toBe(0);
    } finally {
      delete process.env.CLAUDE_EFFORT;
    }
    expect(readFileSync(join(without.project, "effort.txt"), "utf8")).toBe("-");
  });

  it("none turns DeepSeek's thinking off", async () => {
    const world = await newWorld(turn());
    expect((await keel(world, ["run", "go", "--yes", "--effort", "none"])).code).toBe(0);
    expect(body(world)).toMatchObject({ thinking: { type: "disabled" } });
    expect(body(world)).not.toHaveProperty("reasoning_effort");
  });

  it("--effort on a model that takes none stops before any request, naming model and file", async () => {
    const world = await newWorld(turn());
    const r = await keel(world, ["run", "go", "--effort", "high", "--model", "deepseek-chat"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      '--effort: model deepseek-chat takes no effort level (data/models.json declares no "effort" for it)',
    );
    expect(world.sim.requests).toHaveLength(0);
  });

  it("config.json's effort on such a model is a warning, and the run goes on without it", async () => {
    const world = await newWorld(turn());
    writeFileSync(join(world.home, "config.json"), JSON.stringify({ effort: "max" }));
    writeSettings(world, { PreToolUse: [commandHook(recorder(world, "pre"))] });
    const r = await keel(world, ["run", "go", "--yes", "--model", "deepseek-chat"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("model deepseek-chat takes no effort level");
    expect(r.stderr).toContain("running without");
    expect(body(world)).not.toHaveProperty("reasoning_effort");
    const [[pre, env]] = recorded(world, "pre") as [[Record<string, unknown>, string]];
    expect(pre.model).toBe("deepseek-chat");
    expect(pre).not.toHaveProperty("effort");
    expect(env).toBe("-");
  });

  it("an unknown level is refused by name", async () => {
    const world = await newWorld(turn());
    const r = await keel(world, ["run", "go", "--effort", "extreme"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("--effort:");
    expect(r.stderr).toContain('(got "extreme")');
    expect(world.sim.requests).toHaveLength(0);
  });
});
