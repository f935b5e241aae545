/**
 * Trust for project MCP servers: `$KEEL_HOME/mcp-trust.json` maps a project path to the sha256 of
 * its project-level server definitions (as written, before variable expansion) and its MCP allow
 * rules, keyed like the hooks trust store, so any change (a `git pull`) makes them untrusted again.
 * A separate record, so the hooks trust store can evolve on its own; `keel hooks trust` and the
 * TUI prompt write both together.
 */
import { readFile, stat } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { canonicalJson, sha256Hex } from "../base/index.js";
import { readTrustRecords, writeTrustRecord } from "../hooks/trust-records.js";
import type { McpConfig } from "./config.js";

/** Path of the MCP trust store. */
export function mcpTrustPath(keelHome: string): string {
  return join(keelHome, "mcp-trust.json");
}

/** Whether the config holds anything that needs the project's trust. */
export function hasProjectServers(config: McpConfig): boolean {
  return config.servers.some((s) => s.scope === "project");
}

/**
 * sha256 of the canonical JSON of the project-level servers and allow rules, and of the contents
 * of the project files a stdio server's command or arguments name (`node ./tools/server.js`):
 * editing that script makes the server untrusted again, as for hooks.
 */
export async function projectMcpHash(config: McpConfig, projectDir: string): Promise<string> {
  const project = config.servers.filter((s) => s.scope === "project");
  const servers = project.map((s) => ({
    name: s.name,
    file: relative(projectDir, s.file),
    config: s.config,
  }));
  const allow = config.allow
    .filter((a) => a.scope === "project")
    .map((a) => ({ rule: a.rule, file: relative(projectDir, a.file) }));
  const files = await executedFiles(project, projectDir);
  return sha256Hex(canonicalJson({ servers, allow, files }));
}

/** The project files stdio servers name (paths inside the project that are regular files). */
async function executedFiles(
  servers: McpConfig["servers"],
  projectDir: string,
): Promise<{ path: string; sha256: string | null }[]> {
  const paths = new Set<string>();
  for (const s of servers) {
    if (s.config.type !== "stdio") continue;
    const cwd = s.config.cwd !== undefined ? resolve(projectDir, s.config.cwd) : projectDir;
    for (const word of [s.config.command, ...s.config.args].slice(0, 200)) {
      if (word === "" || word.startsWith("-") || word.includes("\0")) continue;
      const abs = resolve(cwd, word);
      const rel = relative(projectDir, abs);
      if (rel !== "" && !rel.startsWith("..") && !isAbsolute(rel)) paths.add(abs);
    }
  }
  const out: { path: string; sha256: string | null }[] = [];
  for (const path of [...paths].sort()) {
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) continue;
    const sha256 = await readFile(path)
      .then((b) => sha256Hex(b))
      .catch(() => null);
    out.push({ path: relative(projectDir, path).split(sep).join("/"), sha256 });
  }
  return out;
}

/** Whether the project's current MCP definitions are trusted (true when it has none). */
export async function isMcpTrusted(opts: {
  keelHome: string;
  projectDir: string;
  config: McpConfig;
}): Promise<boolean> {
  if (!hasProjectServers(opts.config) && !opts.config.allow.some((a) => a.scope === "project"))
    return true;
  const store = readTrustRecords(mcpTrustPath(opts.keelHome));
  return store.projects[opts.projectDir] === (await projectMcpHash(opts.config, opts.projectDir));
}

/** Trusts the project's current MCP definitions (or forgets them with `trust: false`). File 0600. */
export async function setMcpTrust(opts: {
  keelHome: string;
  projectDir: string;
  config: McpConfig;
  trust: boolean;
}): Promise<void> {
  const hash = opts.trust ? await projectMcpHash(opts.config, opts.projectDir) : null;
  writeTrustRecord(mcpTrustPath(opts.keelHome), opts.projectDir, hash);
}
