/**
 * Test harness for the agent and `keel run`: a temp project and KEEL_HOME, the simulator on
 * 127.0.0.1, hook scripts written to disk, and `keel run` called in-process with captured output.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import { createAgent } from "../../src/agent/agent.js";
import type { AgentEvent } from "../../src/agent/events.js";
import type { Agent, AgentOptions } from "../../src/agent/types.js";
import { main } from "../../src/cli/main.js";
import { createChatClient } from "../../src/llm/client.js";
import { type ScriptInput, type Simulator, startSimulator } from "../../src/sim/index.js";
import { createBuiltinTools } from "../../src/tools/registry.js";
import { type CliResult, captureOutput } from "../helpers/cli.js";

/** One test's world. */
export interface World {
  root: string;
  project: string;
  home: string;
  sim: Simulator;
  /** Environment for spawned `keel` processes and hooks. */
  env: NodeJS.ProcessEnv;
  dispose(): Promise<void>;
}

/** Creates a temp project + KEEL_HOME and starts the simulator with `script`. */
export async function createWorld(script: ScriptInput): Promise<World> {
  const root = mkdtempSync(join(tmpdir(), "keel-agent-"));
  const project = join(root, "project");
  const home = join(root, "keel-home");
  mkdirSync(project, { recursive: true });
  mkdirSync(home, { recursive: true });
  const sim = await startSimulator({ script });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    KEEL_HOME: home,
    HOME: root,
    DEEPSEEK_API_KEY: "sk-test-key",
    KEEL_BASE_URL: sim.url,
    KEEL_MODEL: "deepseek-v4-flash",
  };
  return {
    root,
    project,
    home,
    sim,
    env,
    dispose: async () => {
      await sim.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * Call once at a test file's top level: returns `start`, which creates a world for the current
 * test; an afterEach disposes every world started in that test.
 */
export function worldPerTest(): (script: ScriptInput) => Promise<World> {
  const started: World[] = [];
  afterEach(async () => {
    for (const w of started.splice(0)) await w.dispose();
  });
  return async (script) => {
    const w = await createWorld(script);
    started.push(w);
    return w;
  };
}

/** Drains an agent event stream into an array. */
export async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const ev of events) out.push(ev);
  return out;
}

/** An agent wired to the world: its project, KEEL_HOME, HOME, env, simulator and built-in tools. */
export function agentFor(w: World, extra: Partial<AgentOptions> = {}): Promise<Agent> {
  return createAgent({
    projectDir: w.project,
    keelHome: w.home,
    homeDir: w.root,
    env: w.env,
    client: createChatClient({ baseUrl: w.sim.url, apiKey: "sk-test" }),
    model: "deepseek-v4-flash",
    tools: createBuiltinTools({ cwd: w.project }),
    ...extra,
  });
}

/** Writes an executable hook script under `<root>/hooks/` and returns its absolute path. */
export function hookScript(world: World, name: string, body: string): string {
  const dir = join(world.root, "hooks");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

/** A `{matcher, hooks:[{type:command, command}]}` group. */
export function commandHook(
  command: string,
  matcher?: string,
  extra: Record<string, unknown> = {},
) {
  return {
    ...(matcher !== undefined ? { matcher } : {}),
    hooks: [{ type: "command", command, ...extra }],
  };
}

/** Writes user-level (trusted) native hook settings: `$KEEL_HOME/settings.json`. */
export function writeSettings(world: World, hooks: Record<string, unknown[]>): void {
  writeFileSync(join(world.home, "settings.json"), JSON.stringify({ hooks }, null, 2));
}

/** What an in-process `keel` run printed. */
export type RunResult = CliResult;

/** Runs `keel <args>` in-process with the world's environment; captures stdout and stderr. */
export async function keel(world: World, args: string[]): Promise<RunResult> {
  const saved = { ...process.env };
  for (const key of ["KEEL_HOME", "HOME", "DEEPSEEK_API_KEY", "KEEL_BASE_URL", "KEEL_MODEL"]) {
    const v = world.env[key];
    if (v === undefined) delete process.env[key];
    else process.env[key] = v;
  }
  try {
    const withCwd = args[0] === "run" ? [...args, "--cwd", world.project] : args;
    return await captureOutput(() => main(withCwd));
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
}

/** The messages of request `i` as the exact bytes the simulator received. */
export function sentMessages(world: World, i: number): string[] {
  const r = world.sim.requests[i];
  if (r === undefined) throw new Error(`no request ${i} (got ${world.sim.requests.length})`);
  return r.messageTexts;
}
