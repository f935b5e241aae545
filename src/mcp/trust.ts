/**
 * Trust for project MCP servers: `$KEEL_HOME/mcp-trust.json` maps a project path to the sha256 of
 * its project-level server definitions (as written, before variable expansion) and its MCP allow
 * rules, keyed like the hooks trust store, so any change (a `git pull`) makes them untrusted again.
 * A separate record, so the hooks trust store can evolve on its own; `keel hooks trust` and the
 * TUI prompt write both together.
 */
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { z } from "zod";
import type { McpConfig } from "./config.js";

const StoreSchema = z.object({ version: z.literal(1), projects: z.record(z.string(), z.string()) });
type Store = z.infer<typeof StoreSchema>;

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
  return createHash("sha256").update(canonical({ servers, allow, files })).digest("hex");
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
      .then((b) => createHash("sha256").update(b).digest("hex"))
      .catch(() => null);
    out.push({ path: relative(projectDir, path).split(sep).join("/"), sha256 });
  }
  return out;
}

async function readStore(keelHome: string): Promise<Store> {
  try {
    const parsed = StoreSchema.safeParse(
      JSON.parse(await readFile(mcpTrustPath(keelHome), "utf8")),
    );
    if (parsed.success) return parsed.data;
  } catch {
    // Missing or unreadable: nothing is trusted, the safe reading.
  }
  return { version: 1, projects: {} };
}

/** Whether the project's current MCP definitions are trusted (true when it has none). */
export async function isMcpTrusted(opts: {
  keelHome: string;
  projectDir: string;
  config: McpConfig;
}): Promise<boolean> {
  if (!hasProjectServers(opts.config) && !opts.config.allow.some((a) => a.scope === "project"))
    return true;
  const store = await readStore(opts.keelHome);
  return store.projects[opts.projectDir] === (await projectMcpHash(opts.config, opts.projectDir));
}

/** Trusts the project's current MCP definitions (or forgets them with `trust: false`). File 0600. */
export async function setMcpTrust(opts: {
  keelHome: string;
  projectDir: string;
  config: McpConfig;
  trust: boolean;
}): Promise<void> {
  const store = await readStore(opts.keelHome);
  if (opts.trust)
    store.projects[opts.projectDir] = await projectMcpHash(opts.config, opts.projectDir);
  else delete store.projects[opts.projectDir];
  await mkdir(opts.keelHome, { recursive: true });
  const path = mcpTrustPath(opts.keelHome);
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(tmp, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600 });
  await rename(tmp, path);
}

function canonical(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? "null";
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value === "object" && value !== null) {
    const src = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(src)
        .sort()
        .filter((k) => src[k] !== undefined)
        .map((k) => [k, sortKeys(src[k])]),
    );
  }
  return value;
}
