/**
 * What `keel plugins install <folder | marketplace> [name]` installs: a plugin folder (with
 * `.claude-plugin/plugin.json`), or one plugin of a local marketplace (`.claude-plugin/
 * marketplace.json`, given as the file or its folder) whose entry has a relative `source`.
 * Every mistake is a UserError naming the file and field.
 */
import { type Stats, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { isRecord } from "../../base/index.js";
import {
  insidePlugin,
  MANIFEST_PATH,
  readJsonFile,
  readPluginManifest,
} from "../../hooks/index.js";
import { UserError } from "../user-error.js";

/** Claude Code's plugin-name rule (kebab-case), with digits allowed first. */
const PLUGIN_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const MARKETPLACE_PATH = join(".claude-plugin", "marketplace.json");

/** A plugin folder to copy and the name it is installed under. */
export interface PluginSource {
  dir: string;
  name: string;
  /** plugin.json's version and description, shown after installing. */
  version: string | null;
  description: string | null;
}

/** Finds the plugin `arg` names (a path, relative to `cwd`), `pick` choosing in a marketplace. */
export function resolvePluginSource(
  arg: string,
  pick: string | undefined,
  cwd: string,
): PluginSource {
  const abs = resolve(cwd, arg);
  const st = statOrNull(abs);
  if (st === null) throw new UserError(`${abs}: no such file or folder`);
  if (st.isFile()) return fromMarketplace(abs, pick);
  if (!st.isDirectory()) throw new UserError(`${abs}: not a file or folder`);
  const manifest = join(abs, MANIFEST_PATH);
  const market = join(abs, MARKETPLACE_PATH);
  if (statOrNull(manifest) === null && statOrNull(market)?.isFile()) {
    return fromMarketplace(market, pick);
  }
  const source = fromFolder(abs);
  if (pick !== undefined && pick !== source.name) {
    throw new UserError(
      `${manifest}: name: the folder holds plugin "${source.name}", not "${pick}" (a name picks a plugin from a marketplace file)`,
    );
  }
  return source;
}

/** A plugin folder: its manifest must be there, valid JSON, with a usable `name`. */
export function fromFolder(dir: string): PluginSource {
  const read = readPluginManifest(dir);
  if (!read.ok) throw new UserError(read.problem);
  if (read.manifest === null) {
    throw new UserError(
      `${read.path}: missing: a plugin folder holds .claude-plugin/plugin.json with its "name" (a marketplace holds ${MARKETPLACE_PATH})`,
    );
  }
  const name = read.manifest.name;
  if (typeof name !== "string") {
    throw new UserError(`${read.path}: name: required, a string`);
  }
  if (!PLUGIN_NAME.test(name) || name.length > 64) {
    throw new UserError(
      `${read.path}: name: ${JSON.stringify(name)} is not a plugin name (lowercase letters, digits and single "-", at most 64, as Claude Code requires)`,
    );
  }
  if (name === "data") {
    throw new UserError(`${read.path}: name: "data" is reserved (Keel keeps plugins' data there)`);
  }
  const text = (v: unknown) => (typeof v === "string" ? v : null);
  return {
    dir,
    name,
    version: text(read.manifest.version),
    description: text(read.manifest.description),
  };
}

function fromMarketplace(file: string, pick: string | undefined): PluginSource {
  const read = readJsonFile(file);
  if (!read.ok) throw new UserError(read.problem);
  const json = read.value;
  if (!isRecord(json)) throw new UserError(`${file}: must be a JSON object`);
  if (!Array.isArray(json.plugins)) throw new UserError(`${file}: plugins: required, a list`);
  const entries = json.plugins.map((e, i) => ({ e, i }));
  const names = entries.flatMap(({ e }) =>
    isRecord(e) && typeof e.name === "string" ? [e.name] : [],
  );
  const listed = names.length > 0 ? ` (it lists: ${names.join(", ")})` : " (it lists none)";
  let chosen: { e: unknown; i: number } | undefined;
  if (pick !== undefined) {
    chosen = entries.find(({ e }) => isRecord(e) && e.name === pick);
    if (chosen === undefined)
      throw new UserError(`${file}: plugins: no plugin named "${pick}"${listed}`);
  } else if (entries.length === 1) {
    chosen = entries[0];
  } else {
    throw new UserError(
      `${file}: plugins: name the one to install: keel plugins install ${file} NAME${listed}`,
    );
  }
  const { e, i } = chosen as { e: unknown; i: number };
  const where = `${file}: plugins[${i}].source`;
  if (!isRecord(e)) throw new UserError(`${file}: plugins[${i}]: must be an object`);
  // The marketplace's root is the folder holding `.claude-plugin/`; `metadata.pluginRoot` is
  // put before relative sources (Claude Code's marketplace format).
  const dir = dirname(file);
  const root = basename(dir) === ".claude-plugin" ? dirname(dir) : dir;
  const meta = isRecord(json.metadata) ? json.metadata : {};
  const base = typeof meta.pluginRoot === "string" ? insidePlugin(root, meta.pluginRoot) : root;
  if (base === null) {
    throw new UserError(`${file}: metadata.pluginRoot: must be a folder inside ${root}`);
  }
  if (typeof e.source !== "string") {
    const kind =
      isRecord(e.source) && typeof e.source.source === "string" ? e.source.source : "non-path";
    throw new UserError(
      `${where}: a ${kind} source is fetched over the network; Keel installs local plugins only (fetch it yourself, then install the folder)`,
    );
  }
  const pluginDir = insidePlugin(base, e.source);
  if (pluginDir === null || /^[a-z]+:/i.test(e.source)) {
    throw new UserError(`${where}: ${JSON.stringify(e.source)} is not a folder inside ${root}`);
  }
  if (!statOrNull(pluginDir)?.isDirectory()) {
    throw new UserError(`${where}: ${pluginDir}: no such folder`);
  }
  return fromFolder(pluginDir);
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}
