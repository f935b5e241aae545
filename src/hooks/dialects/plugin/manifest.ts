/**
 * A plugin folder in Claude Code's format: `.claude-plugin/plugin.json` (name, version,
 * description, and `mcpServers` inline or as a path), `.mcp.json` at the root, `commands/*.md`,
 * `agents/*.md`, `skills/<name>/SKILL.md`, `hooks/hooks.json`. Reading only: what each part
 * means is decided where that part is loaded (src/agent/commands/load.ts, src/agent/agent-files.ts,
 * src/agent/skills/load.ts, src/mcp/config.ts, this dialect for hooks).
 */
import { readdirSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { isDirectory, isRecord, isRegularFile, readConfigTextSync } from "../../../base/index.js";

/** Where a plugin's manifest is, relative to its root. */
export const MANIFEST_PATH = join(".claude-plugin", "plugin.json");

/** The manifest, absent (null: Claude Code allows a plugin without one), or why it is unusable. */
export type ManifestRead =
  | { ok: true; path: string; manifest: Record<string, unknown> | null }
  | { ok: false; path: string; problem: string };

/** Reads `<root>/.claude-plugin/plugin.json`. Never throws. */
export function readPluginManifest(root: string): ManifestRead {
  const path = join(root, MANIFEST_PATH);
  const read = readJsonFile(path);
  if (!read.ok) return { ok: false, path, problem: read.problem };
  if (read.value === undefined) return { ok: true, path, manifest: null };
  if (!isRecord(read.value)) {
    return { ok: false, path, problem: `${path}: must be a JSON object` };
  }
  return { ok: true, path, manifest: read.value };
}

/** A JSON file's value (undefined: no file), or a problem naming the file. */
export function readJsonFile(
  path: string,
): { ok: true; value: unknown } | { ok: false; problem: string } {
  const { content, error } = readConfigTextSync(path);
  if (error) return { ok: false, problem: `${path}: ${error}` };
  if (content === null) return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(content) };
  } catch (err) {
    return {
      ok: false,
      problem: `${path}: not valid JSON (${err instanceof Error ? err.message : String(err)})`,
    };
  }
}

/** The variables Claude Code fills in a plugin's files. */
export interface PluginVars {
  root: string;
  dataDir: string;
}

const PLUGIN_VAR = /\$\{CLAUDE_PLUGIN_(ROOT|DATA)\}/g;

/**
 * `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}` filled in every string of a JSON value
 * (other `${VAR}`s are left for the MCP expansion, src/mcp/expand.ts).
 */
export function fillPluginVars<T>(value: T, vars: PluginVars): T {
  if (typeof value === "string") {
    return value.replace(PLUGIN_VAR, (_, name: string) =>
      name === "ROOT" ? vars.root : vars.dataDir,
    ) as T;
  }
  if (Array.isArray(value)) return value.map((v) => fillPluginVars(v, vars)) as T;
  if (isRecord(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, fillPluginVars(v, vars)]),
    ) as T;
  }
  return value;
}

/** A plugin's MCP server definitions as written, each with the file that defines it. */
export interface PluginMcpServers {
  servers: { name: string; raw: unknown; file: string }[];
  problems: string[];
}

/**
 * The servers of `<root>/.mcp.json` (`{"mcpServers": {…}}` or the bare map, both seen in
 * plugins) and of plugin.json's `mcpServers` (an object, or a path / list of paths inside the
 * plugin to such files). plugin.json's win a name clash.
 */
export function pluginMcpServers(root: string): PluginMcpServers {
  const out: PluginMcpServers = { servers: [], problems: [] };
  const byName = new Map<string, { name: string; raw: unknown; file: string }>();
  const addFile = (path: string, field: string) => {
    const read = readJsonFile(path);
    if (!read.ok) return out.problems.push(read.problem);
    if (read.value === undefined) {
      if (field !== "") out.problems.push(`${field}: ${path}: no such file`);
      return;
    }
    addMap(serverMap(read.value), path, "");
  };
  const addMap = (map: unknown, file: string, field: string) => {
    if (!isRecord(map))
      return out.problems.push(`${file}: ${field || "mcpServers"}: must be an object`);
    for (const [name, raw] of Object.entries(map)) byName.set(name, { name, raw, file });
  };
  addFile(join(root, ".mcp.json"), "");
  const m = readPluginManifest(root);
  if (!m.ok) out.problems.push(m.problem);
  const inline = m.ok ? m.manifest?.mcpServers : undefined;
  if (inline !== undefined) {
    const where = `${m.path}: mcpServers`;
    if (isRecord(inline)) addMap(inline, m.path, "mcpServers");
    else {
      const paths = Array.isArray(inline) ? inline : [inline];
      for (const p of paths) {
        const abs = typeof p === "string" ? insidePlugin(root, p) : null;
        if (abs === null) {
          out.problems.push(`${where}: ${JSON.stringify(p)} is not a path inside the plugin`);
        } else if (abs !== join(root, ".mcp.json")) addFile(abs, where);
      }
    }
  }
  out.servers = [...byName.values()];
  return out;
}

function serverMap(value: unknown): unknown {
  return isRecord(value) && isRecord(value.mcpServers) ? value.mcpServers : value;
}

/** `path` (relative, as plugin.json writes it) resolved inside `root`, or null when it leaves. */
export function insidePlugin(root: string, path: string): string | null {
  const abs = resolve(root, path);
  const rel = relative(root, abs);
  return rel.startsWith("..") || resolve(root, rel) !== abs ? null : abs;
}

/** What a plugin holds, by name: shown together by `keel plugins list`. */
export interface PluginParts {
  commands: string[];
  agents: string[];
  skills: string[];
  mcpServers: string[];
  hooks: number;
  problems: string[];
}

/** Lists a plugin's parts under the names Keel gives them (`name:command`, `name:agent`). */
export function pluginParts(root: string, name: string): PluginParts {
  const mcp = pluginMcpServers(root);
  const hooks = readJsonFile(join(root, "hooks", "hooks.json"));
  const problems = [...mcp.problems];
  if (!hooks.ok) problems.push(hooks.problem);
  // Claude Code also reads extra paths plugin.json names for these; Keel reads the standard
  // folders only, and says so rather than dropping the rest silently.
  const m = readPluginManifest(root);
  for (const field of ["commands", "agents", "skills", "hooks"] as const) {
    if (m.ok && m.manifest?.[field] !== undefined) {
      problems.push(
        `${m.path}: ${field}: not read by Keel (it reads ${field === "hooks" ? "hooks/hooks.json" : `${field}/`} only)`,
      );
    }
  }
  return {
    commands: markdownNames(join(root, "commands"), true).map((n) => `${name}:${n}`),
    agents: markdownNames(join(root, "agents"), false).map((n) => `${name}:${agentName(root, n)}`),
    skills: subdirs(join(root, "skills"))
      .filter((d) => isRegularFile(join(root, "skills", d, "SKILL.md")))
      .map((d) => `${name}:${d}`),
    mcpServers: mcp.servers.map((s) => s.name),
    hooks: hooks.ok ? countHandlers(hooks.value) : 0,
    problems,
  };
}

function countHandlers(json: unknown): number {
  if (!isRecord(json) || !isRecord(json.hooks)) return 0;
  let n = 0;
  for (const groups of Object.values(json.hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const g of groups) if (isRecord(g) && Array.isArray(g.hooks)) n += g.hooks.length;
  }
  return n;
}

/** An agent file's frontmatter `name:` (what the task tool offers), else its file name. */
function agentName(root: string, file: string): string {
  const { content } = readConfigTextSync(join(root, "agents", `${file}.md`));
  const fm = content === null ? null : /^---\r?\n([\s\S]*?)\r?\n---/.exec(content);
  const line = fm?.[1] === undefined ? null : /^name:\s*["']?([^"'\r\n]+?)["']?\s*$/m.exec(fm[1]);
  return line?.[1] ?? basename(file);
}

/** `.md` files in `dir` (and, for commands, sub-folders: `a:b`), without `.md`. */
function markdownNames(dir: string, recurse: boolean, depth = 0, prefix = ""): string[] {
  const out: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return out;
  }
  for (const n of names) {
    const p = join(dir, n);
    if (recurse && depth < 3 && isDirectory(p)) {
      out.push(...markdownNames(p, recurse, depth + 1, `${prefix}${n}:`));
    } else if (n.toLowerCase().endsWith(".md") && isRegularFile(p)) {
      out.push(`${prefix}${n.slice(0, -3)}`);
    }
  }
  return out;
}

function subdirs(dir: string): string[] {
  try {
    return readdirSync(dir)
      .sort()
      .filter((n) => isDirectory(join(dir, n)));
  } catch {
    return [];
  }
}
