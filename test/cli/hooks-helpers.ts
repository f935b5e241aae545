/**
 * Test helpers for `keel hooks`: temp projects made from fixtures in a temp KEEL_HOME and HOME
 * (run the CLI with `keel` from test/helpers/cli.ts).
 */
import { cp, mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { tempKeelHome } from "../helpers/temp-home.js";

/** Absolute path of a fixture project under test/fixtures/hooks. */
export function fixture(name: string): string {
  return resolve(__dirname, "../fixtures/hooks", name);
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
  const temp = tempKeelHome("keel-hooks-cli-");
  const project = join(temp.root, "project");
  if (from !== undefined) await cp(fixture(from), project, { recursive: true });
  else await mkdir(project, { recursive: true });
  return {
    root: temp.root,
    home: temp.home,
    keelHome: temp.keelHome,
    project,
    async cleanup() {
      temp.restore();
    },
  };
}

/** Parses the single JSON object `keel hooks test --json` prints (fails on anything else). */
export function parseOnlyJson(stdout: string): Record<string, unknown> {
  const value: unknown = JSON.parse(stdout);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`expected one JSON object, got: ${stdout}`);
  }
  return Object.fromEntries(Object.entries(value));
}
