/**
 * The MCP server lists of managed settings (docs/security.md "Managed settings"): `allowedMcpServers` and
 * `deniedMcpServers` in the administrator's file, each a list of server names (or Claude Code's
 * `{"serverName": "…"}` objects). A denied server never starts, whoever defines it; with an
 * allow list, only the servers it names start. A managed file that exists but cannot be read
 * starts no server at all: Keel does not guess what an unreadable policy allowed.
 */
import { isRecord, readConfigText, resolveManagedSettingsPath } from "../base/index.js";
import { parseSettingsJson } from "../hooks/index.js";

/** What the managed file says about MCP servers. */
export interface ManagedMcpPolicy {
  path: string;
  /** null: no allow list (every server not denied may start). */
  allowed: Set<string> | null;
  denied: Set<string>;
  problems: string[];
}

function namesOf(list: unknown, field: string, path: string, problems: string[]): string[] {
  if (!Array.isArray(list)) {
    problems.push(`${path}: ${field}: must be a list of server names`);
    return [];
  }
  const out: string[] = [];
  for (const item of list) {
    const name = typeof item === "string" ? item : isRecord(item) ? item.serverName : undefined;
    if (typeof name === "string" && name !== "") out.push(name);
    else problems.push(`${path}: ${field}: ${JSON.stringify(item)} is not a server name; ignored`);
  }
  return out;
}

/** Reads the managed file's MCP lists; null when there is no managed file. */
export async function readManagedMcpPolicy(path?: string): Promise<ManagedMcpPolicy | null> {
  const file = path ?? resolveManagedSettingsPath();
  const { content, error } = await readConfigText(file);
  if (content === null && error === undefined) return null;
  const policy: ManagedMcpPolicy = { path: file, allowed: null, denied: new Set(), problems: [] };
  let json: unknown;
  try {
    if (error !== undefined) throw new Error(error);
    json = parseSettingsJson(content ?? "");
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    policy.problems.push(`${file}: cannot be read (${why}); no MCP server starts`);
    policy.allowed = new Set();
    return policy;
  }
  if (!isRecord(json)) return policy;
  if (json.allowedMcpServers !== undefined) {
    policy.allowed = new Set(
      namesOf(json.allowedMcpServers, "allowedMcpServers", file, policy.problems),
    );
  }
  if (json.deniedMcpServers !== undefined) {
    for (const n of namesOf(json.deniedMcpServers, "deniedMcpServers", file, policy.problems)) {
      policy.denied.add(n);
    }
  }
  return policy;
}

/** Why the policy keeps server `name` from starting, or null when it may start. */
export function managedMcpRefusal(policy: ManagedMcpPolicy | null, name: string): string | null {
  if (policy === null) return null;
  if (policy.denied.has(name)) return `denied by deniedMcpServers in ${policy.path}`;
  if (policy.allowed !== null && !policy.allowed.has(name)) {
    return `not in allowedMcpServers of ${policy.path}`;
  }
  return null;
}
