/**
 * The MCP servers of an ACP session: the ones Keel's config starts (trust applied, as
 * `keel run` does: src/cli/mcp/session-servers.ts) plus the ones the editor passes in
 * session/new or session/load. The editor's are trusted as given: the user configured them in
 * the editor, which launched Keel. A name the editor reuses replaces Keel's server of that name.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { McpManager, type McpServerEntry, oauthDirOf, parseMcpObject } from "../../mcp/index.js";
import { trustedMcpConfig } from "../mcp/session-servers.js";

/** Where problems with the editor's servers are said to come from. */
export const EDITOR_MCP_SOURCE = "ACP session mcpServers";

/** The editor's servers in `.mcp.json`'s shape (`{mcpServers: {NAME: …}}`). */
export function editorMcpJson(servers: readonly acp.McpServer[]): {
  mcpServers: Record<string, unknown>;
} {
  const mcpServers: Record<string, unknown> = {};
  for (const s of servers) {
    const pairs = (list: readonly { name: string; value: string }[] | undefined) =>
      Object.fromEntries((list ?? []).map((p) => [p.name, p.value]));
    if ("type" in s && (s.type === "http" || s.type === "sse")) {
      mcpServers[s.name] = { type: s.type, url: s.url, headers: pairs(s.headers) };
    } else if ("command" in s) {
      mcpServers[s.name] = { command: s.command, args: s.args, env: pairs(s.env) };
    }
  }
  return { mcpServers };
}

/** Starts the session's servers; undefined when there are none at all. */
export async function startAcpMcp(o: {
  projectDir: string;
  keelHome: string;
  editorServers: readonly acp.McpServer[];
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}): Promise<McpManager | undefined> {
  const t = await trustedMcpConfig(o);
  const editor = parseMcpObject(editorMcpJson(o.editorServers), {
    path: EDITOR_MCP_SOURCE,
    scope: "user",
  });
  const named = new Set(editor.servers.map((s) => s.name));
  const keep = (list: readonly McpServerEntry[]) => list.filter((s) => !named.has(s.name));
  const servers = [...keep(t.run), ...editor.servers];
  const problems = [...t.config.problems, ...editor.problems];
  if (servers.length === 0 && t.untrusted.length === 0 && problems.length === 0) return undefined;
  return McpManager.start({
    servers,
    untrusted: keep(t.untrusted),
    allowRules: t.allowRules,
    configProblems: problems,
    env: o.env,
    cwd: o.projectDir,
    oauthDir: oauthDirOf(o.keelHome),
    ...(o.signal ? { signal: o.signal } : {}),
  });
}
