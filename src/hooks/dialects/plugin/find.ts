/**
 * Where plugin hooks are: Claude Code's installed, enabled plugins (`~/.claude/plugins/
 * installed_plugins.json` + `enabledPlugins` in `~/.claude/settings.json`) and every folder of
 * Keel's plugin directory (`$KEEL_HOME/plugins/<name>/`). Each plugin's hooks are in
 * `hooks/hooks.json`.
 */
import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { childPath, isRecord, readConfigText } from "../../../base/index.js";
import type { HookPaths } from "../../config/paths.js";

/** One plugin Keel found. */
export interface FoundPlugin {
  /** `name@marketplace` for Claude Code plugins, the folder name for Keel's. */
  id: string;
  /** Where it was found. */
  from: "claude" | "keel";
  root: string;
  enabled: boolean;
  /** `${CLAUDE_PLUGIN_DATA}`: a folder the plugin may keep state in. */
  dataDir: string;
}

async function readJson(path: string): Promise<unknown> {
  const { content } = await readConfigText(path);
  if (content === null) return undefined;
  try {
    return JSON.parse(content);
  } catch {
    return undefined;
  }
}

/** Claude Code's data folder name for a plugin id. */
function dataName(id: string): string {
  return id.replace(/[^a-zA-Z0-9\-_]/g, "-");
}

/** Every plugin found, enabled or not. Never throws: unreadable files mean no plugins. */
export async function findPlugins(paths: HookPaths): Promise<FoundPlugin[]> {
  const out: FoundPlugin[] = [];
  const claudeDir = childPath(paths.homeDir, ".claude", "plugins");
  const installed = await readJson(childPath(claudeDir, "installed_plugins.json"));
  const settings = await readJson(childPath(paths.homeDir, ".claude", "settings.json"));
  const enabled =
    isRecord(settings) && isRecord(settings.enabledPlugins) ? settings.enabledPlugins : {};
  const plugins = isRecord(installed) && isRecord(installed.plugins) ? installed.plugins : {};
  for (const [id, entries] of Object.entries(plugins)) {
    // v2: a list of installations (per scope); v1: one object.
    const list = Array.isArray(entries) ? entries : [entries];
    const first = list.find((e) => isRecord(e) && typeof e.installPath === "string");
    if (!isRecord(first) || typeof first.installPath !== "string") continue;
    out.push({
      id,
      from: "claude",
      root: first.installPath,
      enabled: enabled[id] === true,
      dataDir: join(claudeDir, "data", dataName(id)),
    });
  }
  const keelDir = childPath(paths.keelHome, "plugins");
  let names: string[] = [];
  try {
    // Synchronous, like readConfigText: one small directory, and no fs/promises at start-up.
    const entries = readdirSync(keelDir, { withFileTypes: true });
    names = entries.filter((e) => e.isDirectory() && e.name !== "data").map((e) => e.name);
  } catch {
    names = [];
  }
  for (const name of names.sort()) {
    out.push({
      id: name,
      from: "keel",
      root: join(keelDir, name),
      enabled: true,
      dataDir: join(keelDir, "data", dataName(name)),
    });
  }
  return out;
}

/** The plugin a hooks file belongs to (`<root>/hooks/hooks.json`). */
export function pluginRootOf(hooksFile: string): string {
  return join(hooksFile, "..", "..");
}

/** A readable name for a plugin root. */
export function pluginName(root: string): string {
  return basename(root);
}
