/**
 * What `createAgent` (agent.ts) reads and opens for a session before it builds the core: the
 * permission rules, the settings, skills, agent files and custom commands, the MCP servers, and
 * a resumed session's stored conversation.
 */
import { type HookEngine, resolveHookPaths } from "../hooks/index.js";
import type { McpManager } from "../mcp/index.js";
import { loadAgentFiles } from "./agent-files.js";
import { ruleNotices } from "./agent-setup.js";
import { loadCommands } from "./commands/load.js";
import type { AgentCore } from "./core.js";
import type { AgentEvent } from "./events.js";
import type { HookSessionInfo } from "./hook-adapter/fire.js";
import { openMcp } from "./mcp.js";
import { elicitWithHooks } from "./mcp-elicit.js";
import { loadPermissionRules } from "./permissions/rules.js";
import { healDanglingCalls } from "./resume.js";
import type { TurnTracker } from "./rewind.js";
import { loadSessionSettings } from "./settings.js";
import { loadSkills } from "./skills/load.js";
import { TASK_TOOL } from "./task-tool.js";
import type { AgentOptions, SessionPort } from "./types.js";

/** The settings files' paths and the permission rules (allow / deny / ask) they hold, Keel's
 *  and Claude Code's. */
export function sessionRules(opts: AgentOptions) {
  const rulePaths = resolveHookPaths({
    projectDir: opts.projectDir,
    ...(opts.keelHome !== undefined ? { keelHome: opts.keelHome } : {}),
    ...(opts.homeDir !== undefined ? { homeDir: opts.homeDir } : {}),
    env: opts.env ?? process.env,
  });
  const permissionRules =
    opts.permissionRules === false
      ? undefined
      : (opts.permissionRules ?? loadPermissionRules(rulePaths));
  const rules = permissionRules
    ? { rules: permissionRules.rules, homeDir: rulePaths.homeDir }
    : undefined;
  return { rulePaths, permissionRules, rules };
}

/**
 * The session's settings, skills, agent files (only with the task tool: `withTask`) and custom
 * commands.
 * Skills and agent files are read once, here: their lists go into the skill and task tools'
 * descriptions, pinned with the prefix for the session (src/tools/skill.ts says why there).
 * `warnings` is what reading them found wrong, with the rules' problems, said at SessionStart.
 */
export async function loadSessionFiles(opts: AgentOptions, r: ReturnType<typeof sessionRules>) {
  // The task tool is offered unless sub-agents are off or the caller brings its own.
  const withTask = opts.subagents !== false && !opts.tools.some((t) => t.name === TASK_TOOL);
  const loaded = opts.settings
    ? { settings: opts.settings, warnings: [] as string[] }
    : loadSessionSettings({
        projectDir: opts.projectDir,
        ...(opts.keelHome !== undefined ? { keelHome: opts.keelHome } : {}),
      });
  const skills = await loadSkills(r.rulePaths);
  const agentFiles = withTask ? loadAgentFiles(r.rulePaths) : { agents: [], problems: [] };
  const commands = loadCommands({
    projectDir: opts.projectDir,
    ...(opts.keelHome !== undefined ? { keelHome: opts.keelHome } : {}),
    homeDir: r.rulePaths.homeDir,
  });
  const warnings = (): string[] => [
    ...loaded.warnings,
    ...commands.problems,
    ...skills.problems,
    ...agentFiles.problems,
    ...ruleNotices(r.permissionRules, r.rulePaths),
  ];
  return { settings: loaded.settings, skills, agentFiles, commands, warnings, withTask };
}

/** The session's MCP servers, if it has any; their questions go through the hooks first. */
export async function openSessionMcp(
  opts: AgentOptions,
  o: {
    childEnv: NodeJS.ProcessEnv;
    engine: HookEngine;
    info: HookSessionInfo;
    notices: AgentEvent[];
  },
): Promise<McpManager | undefined> {
  if (opts.mcpServers === undefined) return undefined;
  return openMcp({
    servers: opts.mcpServers,
    projectDir: opts.projectDir,
    env: o.childEnv,
    notices: o.notices,
    onElicit: elicitWithHooks({
      engine: () => o.engine,
      info: o.info,
      notices: o.notices,
      ...(opts.onElicit ? { user: opts.onElicit } : {}),
    }),
    ...(opts.mcpStartupTimeoutMs !== undefined
      ? { startupTimeoutMs: opts.mcpStartupTimeoutMs }
      : {}),
  });
}

/** A resumed session's stored messages, replayed into the core exactly; throws (after closing
 *  the MCP servers) when they cannot be. */
export async function restoreConversation(
  core: AgentCore,
  session: SessionPort,
  tracker: TurnTracker,
  mcp: McpManager | undefined,
): Promise<void> {
  const restored = core.log.restore(session.messages);
  if (!restored.ok) await mcp?.close();
  if (!restored.ok) throw new Error(`cannot resume session ${session.id}: ${restored.error}`);
  // Turns go on numbering from the stored ones, so `rewind N` names one turn of the file.
  core.turns = Math.max(0, ...tracker.turns);
  healDanglingCalls(core.log);
  // The conversation is as big as when it was left: automatic compaction counts from there.
  core.lastPromptTokens = session.promptTokens ?? 0;
}
