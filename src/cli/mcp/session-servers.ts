/**
 * The MCP servers of a CLI session (`keel run`, the TUI): the configured servers, with project
 * servers started only when the project's MCP definitions are trusted. Untrusted ones are listed
 * in one notice and never spawned. No config at all costs nothing (no manager).
 */
import {
  type ElicitationHandler,
  isMcpTrusted,
  loadMcpConfig,
  type McpConfig,
  McpManager,
  oauthDirOf,
} from "../../mcp/index.js";

/** What the session needs to start MCP. */
export interface SessionServersOptions {
  projectDir: string;
  keelHome: string;
  env?: NodeJS.ProcessEnv;
  onElicit?: ElicitationHandler;
  startupTimeoutMs?: number;
  /** Aborted when the user quits while the servers start: the wait ends at once. */
  signal?: AbortSignal;
  /** The servers still being waited for (McpStartOptions.onWaiting). */
  onWaiting?: (names: string[]) => void;
}

/** The servers split by trust. */
export interface TrustedConfig {
  config: McpConfig;
  trusted: boolean;
  run: McpConfig["servers"];
  untrusted: McpConfig["servers"];
  allowRules: string[];
}

/** Reads the config and applies trust: user servers always run, project ones only when trusted. */
export async function trustedMcpConfig(o: {
  projectDir: string;
  keelHome: string;
}): Promise<TrustedConfig> {
  const config = await loadMcpConfig(o);
  const trusted = await isMcpTrusted({ ...o, config });
  const run = config.servers.filter((s) => trusted || s.scope === "user");
  const untrusted = config.servers.filter((s) => !trusted && s.scope === "project");
  const allowRules = config.allow.filter((a) => trusted || a.scope === "user").map((a) => a.rule);
  return { config, trusted, run, untrusted, allowRules };
}

/** Starts the session's servers; undefined when none are configured. */
export async function startSessionServers(
  opts: SessionServersOptions,
): Promise<McpManager | undefined> {
  const t = await trustedMcpConfig(opts);
  if (t.config.servers.length === 0 && t.config.problems.length === 0) return undefined;
  return McpManager.start({
    servers: t.run,
    untrusted: t.untrusted,
    allowRules: t.allowRules,
    configProblems: t.config.problems,
    env: opts.env ?? process.env,
    cwd: opts.projectDir,
    oauthDir: oauthDirOf(opts.keelHome),
    ...(opts.onElicit ? { onElicit: opts.onElicit } : {}),
    ...(opts.startupTimeoutMs !== undefined ? { startupTimeoutMs: opts.startupTimeoutMs } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.onWaiting ? { onWaiting: opts.onWaiting } : {}),
  });
}
