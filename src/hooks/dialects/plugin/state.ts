/**
 * Keel's own record of which plugins are on: `$KEEL_HOME/plugins.json`,
 * `{"version": 1, "enabled": {"<id>": true | false}}`. `keel plugins enable|disable` write it, so
 * Keel never edits `~/.claude/settings.json`; a record here overrides Claude Code's
 * `enabledPlugins` for Keel alone. A Keel plugin folder with no record is on (it was put there
 * by the user). Only the user's KEEL_HOME holds this file: nothing in a project can turn a
 * plugin on.
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { isRecord, readConfigTextSync } from "../../../base/index.js";

/** Path of the record. */
export function pluginStatePath(keelHome: string): string {
  return join(keelHome, "plugins.json");
}

/** What the record says, or why it cannot be read (a damaged file is never written over). */
export type PluginState =
  | { ok: true; enabled: Record<string, boolean> }
  | { ok: false; problem: string };

/** Reads the record; a missing file is an empty record. Never throws. */
export function readPluginState(keelHome: string): PluginState {
  const path = pluginStatePath(keelHome);
  const { content, error } = readConfigTextSync(path);
  if (error) return { ok: false, problem: `${path}: ${error}` };
  if (content === null) return { ok: true, enabled: {} };
  let json: unknown;
  try {
    json = JSON.parse(content);
  } catch (err) {
    return {
      ok: false,
      problem: `${path}: not valid JSON (${err instanceof Error ? err.message : String(err)})`,
    };
  }
  if (!isRecord(json) || !isRecord(json.enabled)) {
    return { ok: false, problem: `${path}: enabled: must be an object of plugin ids` };
  }
  const enabled: Record<string, boolean> = {};
  for (const [id, on] of Object.entries(json.enabled)) {
    if (typeof on !== "boolean") {
      return { ok: false, problem: `${path}: enabled.${id}: must be true or false` };
    }
    enabled[id] = on;
  }
  return { ok: true, enabled };
}

/**
 * Sets (`true`/`false`) or forgets (`null`) one plugin's record, keeping the others. Written
 * atomically, mode 0600. Throws naming the file when the current one is damaged.
 */
export function writePluginState(keelHome: string, id: string, on: boolean | null): void {
  const path = pluginStatePath(keelHome);
  const current = readPluginState(keelHome);
  if (!current.ok) {
    throw new Error(`${current.problem}; repair or remove it (Keel will not write over it)`);
  }
  const enabled = { ...current.enabled };
  if (on === null) delete enabled[id];
  else enabled[id] = on;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ version: 1, enabled }, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
}
