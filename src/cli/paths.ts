/**
 * Keel's home and the project directory, as every command resolves them. Kept apart from the
 * hooks engine (commands/hooks/shared.ts re-exports them) so the TUI can find them before its
 * first frame without loading the engine.
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { resolveKeelHome } from "../base/index.js";
import { UserError } from "./user-error.js";

/** `$KEEL_HOME` (made absolute), else `~/.keel`: the one resolver the sandbox uses too. */
export function keelHomeDir(): string {
  return resolveKeelHome(process.env);
}

/** The absolute project directory for `--cwd DIR` (default: the current directory). */
export async function resolveProjectDir(cwd: string | undefined): Promise<string> {
  const dir = resolve(cwd ?? process.cwd());
  // Synchronous: one stat, and fs/promises stays unloaded for `keel hooks list` (start-up).
  let info: ReturnType<typeof statSync> | null = null;
  try {
    info = statSync(dir);
  } catch {
    info = null;
  }
  if (info === null) throw new UserError(`--cwd: no such directory: ${dir}`);
  if (!info.isDirectory()) throw new UserError(`--cwd: not a directory: ${dir}`);
  return dir;
}
