/** Where hooks are looked for: the project, Keel's home and the user's home directory. */
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { resolveHome, resolveKeelHome, resolveManagedSettingsPath } from "../../base/index.js";

/** Where hooks are looked for. */
export interface HookPaths {
  projectDir: string;
  keelHome: string;
  homeDir: string;
  /** The administrator's managed settings file (docs/security.md "Managed settings"); unset: none is read. */
  managedSettings?: string;
}

/** Resolves the directories: `keelHome` defaults to `$KEEL_HOME`, then `~/.keel`. */
export function resolveHookPaths(opts: {
  projectDir: string;
  keelHome?: string;
  homeDir?: string;
  env?: NodeJS.ProcessEnv;
}): HookPaths {
  const env = opts.env ?? process.env;
  // One resolver for Keel and its sandbox (src/base/resolve-paths.ts): HOME unset, empty or
  // relative falls back to the account's home; a relative KEEL_HOME is made absolute.
  const homeDir = resolve(opts.homeDir ?? resolveHome(env));
  return {
    projectDir: resolve(opts.projectDir),
    keelHome: resolve(
      opts.keelHome ?? resolveKeelHome(opts.homeDir ? { ...env, HOME: homeDir } : env),
    ),
    homeDir,
    managedSettings: resolveManagedSettingsPath(
      // The variable is Keel's own, not the child's: a stripped child env may lack it.
      env.KEEL_MANAGED_SETTINGS !== undefined ? env : process.env,
    ),
  };
}

/** Whether `path` lies inside `dir`. */
export function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** A path as written in settings: `~/…` is the home directory, relative is the project's. */
export function expandHome(path: string, paths: HookPaths): string {
  if (path === "~") return paths.homeDir;
  if (path.startsWith("~/")) return join(paths.homeDir, path.slice(2));
  return resolve(paths.projectDir, path);
}

/** How a settings file is named in a message: relative inside the project, `~/` at home. */
export function showPath(path: string, paths: HookPaths): string {
  if (isInside(paths.projectDir, path)) return relative(paths.projectDir, path);
  if (isInside(paths.homeDir, path)) return `~/${relative(paths.homeDir, path)}`;
  return path;
}
