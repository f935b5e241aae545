/**
 * MCP in the agent: the servers given to `createAgent` are started (or a running manager adopted),
 * their tools pinned into the prefix at session start, notices queued for the event stream, and
 * `/mcp reload` applied as one deliberate, counted prefix change.
 */
import {
  type ElicitationHandler,
  McpManager,
  type McpServerStatus,
  parseMcpObject,
} from "../mcp/index.js";
import type { AnyTool } from "../tools/registry.js";
import { toolSpecs } from "../tools/registry.js";
import type { AgentEvent } from "./events.js";
import type { ImmutablePrefix } from "./prefix.js";
import type { RepairTool } from "./repair/index.js";
import { prepareToolSpecs } from "./repair/index.js";

/**
 * MCP servers for `createAgent`: a running manager (the CLI starts one after checking trust), or
 * definitions in `.mcp.json`'s shape (`{NAME: {command, args, env} | {type: "http", url, headers}}`),
 * which the agent starts and treats as trusted (the caller chose them).
 */
export type McpServersOption = McpManager | Record<string, unknown>;

/** What `/mcp` shows and does. */
export interface AgentMcp {
  /** Every server's state and tools. */
  statuses(): McpServerStatus[];
  /** Re-lists the tools and adds new ones to the prefix (one counted cache miss if any). */
  reload(): Promise<{ added: string[] }>;
}

/** Starts (or adopts) the servers; queue notices with `notices`. */
export async function openMcp(opts: {
  servers: McpServersOption;
  projectDir: string;
  env: NodeJS.ProcessEnv;
  startupTimeoutMs?: number;
  onElicit?: ElicitationHandler;
  notices: AgentEvent[];
}): Promise<McpManager> {
  const onNotice = (level: "info" | "warn", text: string) =>
    opts.notices.push({ type: "notice", level, text });
  if (opts.servers instanceof McpManager) {
    opts.servers.setNoticeHandler(onNotice);
    for (const n of opts.servers.startupNotices()) onNotice(n.level, n.text);
    return opts.servers;
  }
  const config = parseMcpObject(
    { mcpServers: opts.servers },
    { path: "createAgent({ mcpServers })", scope: "user" },
  );
  const manager = await McpManager.start({
    servers: config.servers,
    env: opts.env,
    cwd: opts.projectDir,
    onNotice,
    ...(opts.startupTimeoutMs !== undefined ? { startupTimeoutMs: opts.startupTimeoutMs } : {}),
    ...(opts.onElicit ? { onElicit: opts.onElicit } : {}),
  });
  for (const p of config.problems) onNotice("warn", p);
  for (const n of manager.startupNotices()) onNotice(n.level, n.text);
  return manager;
}

/** The `/mcp` interface over a manager and the session's live tool list and prefix. */
export function agentMcp(opts: {
  manager: McpManager;
  tools: AnyTool[];
  repairTools: RepairTool[];
  prefix: ImmutablePrefix;
}): AgentMcp {
  return {
    statuses: () => opts.manager.statuses(),
    reload: async () => {
      const fresh = await opts.manager.reload();
      const added: string[] = [];
      for (const tool of fresh) {
        const at = opts.tools.findIndex((t) => t.name === tool.name);
        if (at >= 0) {
          // Same name: the call goes to the new listing; the spec already sent stays as it was.
          opts.tools[at] = tool;
          continue;
        }
        const prepared = prepareToolSpecs(toolSpecs([tool]));
        const spec = prepared.specs[0];
        if (spec === undefined || !opts.prefix.addTool(spec)) continue;
        opts.tools.push(tool);
        opts.repairTools.push(...prepared.tools);
        added.push(tool.name);
      }
      return { added };
    },
  };
}
