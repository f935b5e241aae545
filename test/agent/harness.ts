/**
 * Test harness for the agent and `keel run`: a temp project and KEEL_HOME, the simulator on
 * 127.0.0.1, hook scripts written to disk, and `keel run` called in-process with captured output.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { vi } from "vitest";
import { main } from "../../src/cli/main.js";
import { type ScriptInput, type Simulator, startSimulator } from "../../src/sim/index.js";

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
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `keel <args>` in-process with the world's environment; captures stdout and stderr. */
export async function keel(world: World, args: string[]): Promise<RunResult> {
  const saved = { ...process.env };
  for (const key of ["KEEL_HOME", "HOME", "DEEPSEEK_API_KEY", "KEEL_BASE_URL", "KEEL_MODEL"]) {
    const v = world.env[key];
    if (v === undefined) delete process.env[key];
    else process.env[key] = v;
  }
  let stdout = "";
  let stderr = "";
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk: unknown) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk: unknown) => {
    stderr += String(chunk);
    return true;
  });
  const exitBefore = process.exitCode;
  try {
    const withCwd = args[0] === "run" ? [...args, "--cwd", world.project] : args;
    const code = await main(withCwd);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
    process.exitCode = exitBefore;
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
