/**
 * Where plugins are: Claude Code's installed plugins (`~/.claude/plugins/installed_plugins.json`,
 * on when `enabledPlugins` in `~/.claude/settings.json` says so) and every folder of Keel's plugin
 * directory (`$KEEL_HOME/plugins/<name>/`, what `keel plugins install` fills). Keel's own record
 * (`$KEEL_HOME/plugins.json`, state.ts) overrides both for Keel. Every part of a plugin (hooks,
 * commands, agents, skills, MCP servers) is read from the plugins this finds enabled.
 */
import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { childPath, isRecord, readConfigTextSync } from "../../../base/index.js";
import type { HookPaths } from "../../config/paths.js";
import { readPluginState } from "./state.js";

/** One plugin Keel found. */
export interface FoundPlugin {
  /** `name@marketplace` for Claude Code plugins, the folder name for Keel's. */
  id: string;
  /** The name its parts are known by (`name:command`, `name:agent`): the id before `@`. */
  name: string;
  /** Where it was found. */
  from: "claude" | "keel";
  root: string;
  enabled: boolean;
  /** `${CLAUDE_PLUGIN_DATA}`: a folder the plugin may keep state in. */
  dataDir: string;
}

function readJson(path: string): unknown {
  const { content } = readConfigTextSync(path);
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
export async function findPlugins(
  paths: Pick<HookPaths, "homeDir" | "keelHome">,
): Promise<FoundPlugin[]> {
  return findPluginsSync(paths);
}

/**
 * The same, synchronously (the command and agent-file loaders are synchronous). A damaged
 * `$KEEL_HOME/plugins.json` turns every plugin off: it may be what disabled one.
 */
export function findPluginsSync(paths: Pick<HookPaths, "homeDir" | "keelHome">): FoundPlugin[] {
  const found = allPlugins(paths);
  const state = readPluginState(paths.keelHome);
  return found.map((p) => ({
    ...p,
    enabled: state.ok ? (state.enabled[p.id] ?? p.enabled) : false,
  }));
}

function allPlugins(paths: Pick<HookPaths, "homeDir" | "keelHome">): FoundPlugin[] {
  const out: FoundPlugin[] = [];
  const claudeDir = childPath(paths.homeDir, ".claude", "plugins");
  const installed = readJson(childPath(claudeDir, "installed_plugins.json"));
  const settings = readJson(childPath(paths.homeDir, ".claude", "settings.json"));
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
      name: id.split("@")[0] || id,
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
    // `data` holds the plugins' state; a dot folder is an install still being copied.
    const entries = readdirSync(keelDir, { withFileTypes: true });
    names = entries
      .filter((e) => e.isDirectory() && e.name !== "data" && !e.name.startsWith("."))
      .map((e) => e.name);
  } catch {
    names = [];
  }
  for (const name of names.sort()) {
    out.push({
      id: name,
      name,
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
