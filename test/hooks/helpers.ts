import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A throwaway world: a project, a KEEL_HOME and a HOME, all under one temp dir. */
export interface World {
  root: string;
  project: string;
  keelHome: string;
  home: string;
  /** Writes a file relative to the root (`project/...`, `home/...`, `keel/...`). */
  write(rel: string, content: string, opts?: { executable?: boolean }): string;
  /** Writes JSON to a file relative to the root. */
  json(rel: string, value: unknown): string;
  cleanup(): void;
}

export function makeWorld(): World {
  const root = mkdtempSync(join(tmpdir(), "keel-hooks-"));
  const project = join(root, "project");
  const keelHome = join(root, "keel");
  const home = join(root, "home");
  for (const d of [project, keelHome, home]) mkdirSync(d, { recursive: true });
  const write = (rel: string, content: string, opts: { executable?: boolean } = {}) => {
    const path = join(root, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
    if (opts.executable) chmodSync(path, 0o755);
    return path;
  };
  return {
    root,
    project,
    keelHome,
    home,
    write,
    json: (rel, value) => write(rel, JSON.stringify(value, null, 2)),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Options for createHookEngine / resolveHookPaths pointing at a world. */
export function worldOptions(w: World) {
  return {
    projectDir: w.project,
    keelHome: w.keelHome,
    homeDir: w.home,
    env: { ...process.env, HOME: w.home },
  };
}
