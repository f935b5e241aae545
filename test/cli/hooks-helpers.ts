/**
 * Test helpers for `keel hooks`: temp projects made from fixtures, a temp KEEL_HOME and HOME,
 * and running the real CLI in-process with stdout/stderr captured.
 */
import { cp, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { vi } from "vitest";
import { main } from "../../src/cli/main.js";

/** Absolute path of a fixture project under test/fixtures/hooks. */
export function fixture(name: string): string {
  return resolve(__dirname, "../fixtures/hooks", name);
}

/** What one CLI invocation produced. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `keel <args>` in-process and captures its output. */
export async function keel(args: string[]): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  process.exitCode = undefined;
  try {
    const code = await main(args);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
    process.exitCode = undefined;
  }
}

/** A temp KEEL_HOME and HOME (so nothing touches the real ~/.keel or ~/.claude) and a project. */
export interface Sandbox {
  root: string;
  home: string;
  keelHome: string;
  project: string;
  cleanup(): Promise<void>;
}

/** Creates the sandbox; `from` copies a fixture project into it. */
export async function sandbox(from?: string): Promise<Sandbox> {
  const root = await mkdtemp(join(tmpdir(), "keel-hooks-cli-"));
  const home = join(root, "home");
  const keelHome = join(root, "keel-home");
  const project = join(root, "project");
  if (from !== undefined) await cp(fixture(from), project, { recursive: true });
  else await mkdir(project, { recursive: true });
  const saved = { HOME: process.env.HOME, KEEL_HOME: process.env.KEEL_HOME };
  process.env.HOME = home;
  process.env.KEEL_HOME = keelHome;
  return {
    root,
    home,
    keelHome,
    project,
    async cleanup() {
      restoreEnv("HOME", saved.HOME);
      restoreEnv("KEEL_HOME", saved.KEEL_HOME);
      await rm(root, { recursive: true, force: true });
    },
  };
}

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

/** Parses the single JSON object `keel hooks test --json` prints (fails on anything else). */
export function parseOnlyJson(stdout: string): Record<string, unknown> {
  const value: unknown = JSON.parse(stdout);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`expected one JSON object, got: ${stdout}`);
  }
  return Object.fromEntries(Object.entries(value));
}
