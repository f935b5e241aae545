/**
 * `keel plugins install|enable|disable|uninstall`: Keel's own plugin folder
 * (`$KEEL_HOME/plugins/<name>/`) and on/off record (`$KEEL_HOME/plugins.json`, written 0600).
 * Nothing here edits `~/.claude`: a Claude Code plugin is turned on or off for Keel alone.
 */
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import {
  type FoundPlugin,
  findPluginsSync,
  readPluginState,
  writePluginState,
} from "../../hooks/index.js";
import { UserError } from "../user-error.js";
import type { PluginSource } from "./source.js";

/** Bounds on what one install copies: a plugin is prompts and small scripts. */
export const INSTALL_LIMITS = { bytes: 64 * 1024 * 1024, files: 10_000, depth: 32 };

/** Copies `source` to `$KEEL_HOME/plugins/<name>/` and records it as on. Returns the folder. */
export function installPlugin(keelHome: string, source: PluginSource): string {
  const pluginsDir = join(keelHome, "plugins");
  const dest = join(pluginsDir, source.name);
  if (existsNoFollow(dest)) {
    throw new UserError(
      `a plugin named "${source.name}" is already installed (${dest}); \`keel plugins uninstall ${source.name}\` first`,
    );
  }
  // A damaged record is refused before anything is copied (writePluginState would refuse after).
  const state = readPluginState(keelHome);
  if (!state.ok) throw new UserError(`${state.problem}; repair or remove it first`);
  mkdirSync(pluginsDir, { recursive: true, mode: 0o700 });
  // Copied beside it under a dot name (which findPlugins skips), then renamed into place: a
  // failed copy never leaves half a plugin that loads.
  const staging = join(pluginsDir, `.install-${source.name}-${process.pid}-${Date.now()}`);
  try {
    copyTree(source.dir, staging);
    renameSync(staging, dest);
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
  writePluginState(keelHome, source.name, true);
  return dest;
}

/** Turns a plugin on or off for Keel. */
export function setPluginEnabled(
  paths: { keelHome: string; homeDir: string },
  id: string,
  on: boolean,
): FoundPlugin {
  const plugin = knownPlugin(paths, id);
  writePluginState(paths.keelHome, plugin.id, on);
  return plugin;
}

/** Removes a plugin Keel installed (its folder, its data folder and its record). */
export function uninstallPlugin(
  paths: { keelHome: string; homeDir: string },
  id: string,
): FoundPlugin {
  const plugin = knownPlugin(paths, id);
  if (plugin.from !== "keel") {
    throw new UserError(
      `${plugin.id} was installed by Claude Code (${plugin.root}); remove it there, or \`keel plugins disable ${plugin.id}\` to turn it off for Keel`,
    );
  }
  rmSync(plugin.root, { recursive: true, force: true });
  rmSync(plugin.dataDir, { recursive: true, force: true });
  writePluginState(paths.keelHome, plugin.id, null);
  return plugin;
}

function knownPlugin(paths: { keelHome: string; homeDir: string }, id: string): FoundPlugin {
  const all = findPluginsSync(paths);
  const found = all.find((p) => p.id === id);
  if (found !== undefined) return found;
  const ids = all.map((p) => p.id);
  throw new UserError(
    `unknown plugin id "${id}": ${ids.length > 0 ? `the plugins here are ${ids.join(", ")}` : "no plugins are installed"} (see \`keel plugins list\`)`,
  );
}

function existsNoFollow(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Copies a plugin folder: directories 0700, files 0600 (0700 where the source was executable,
 * so a hook script run directly still runs). A link is followed only when it stays inside the
 * folder (a plugin's `key -> ~/.ssh/id_rsa` must not copy the key); `.git` is left behind;
 * sizes, counts and depth are bounded.
 */
function copyTree(from: string, to: string): void {
  const top = realpathSync(from);
  let files = 0;
  let bytes = 0;
  const walk = (dir: string, out: string, depth: number): void => {
    if (depth > INSTALL_LIMITS.depth) {
      throw new UserError(
        `${dir}: folders nested over ${INSTALL_LIMITS.depth} deep; not installed`,
      );
    }
    mkdirSync(out, { mode: 0o700 });
    for (const entry of readdirSync(dir).sort()) {
      if (entry === ".git") continue;
      let path = join(dir, entry);
      let st = lstatSync(path);
      if (st.isSymbolicLink()) {
        let real: string;
        try {
          real = realpathSync(path);
        } catch {
          throw new UserError(`${path}: a link to nothing; not installed`);
        }
        const rel = relative(top, real);
        if (rel.startsWith("..") || isAbsolute(rel)) {
          throw new UserError(
            `${path}: a link out of the plugin folder (to ${real}); not installed`,
          );
        }
        path = real;
        st = statSync(real);
      }
      const target = join(out, entry);
      if (st.isDirectory()) walk(path, target, depth + 1);
      else if (st.isFile()) {
        files += 1;
        bytes += st.size;
        if (files > INSTALL_LIMITS.files || bytes > INSTALL_LIMITS.bytes) {
          throw new UserError(
            `${from}: larger than ${INSTALL_LIMITS.files} files or ${INSTALL_LIMITS.bytes / 1024 / 1024} MiB; not installed`,
          );
        }
        const mode = (st.mode & 0o100) !== 0 ? 0o700 : 0o600;
        writeFileSync(target, readFileSync(path), { mode, flag: "wx" });
      } else {
        throw new UserError(`${path}: not a regular file or folder; not installed`);
      }
    }
  };
  walk(top, to, 0);
}
