/** The agent layer's public surface: `createAgent`, its options and events, sessions, runners. */
export { createAgent, DEFAULT_MAX_TURNS, memorySession } from "./agent.js";
export type * from "./events.js";
export { AppendOnlyLog } from "./log.js";
export type { AgentMcp, McpServersOption } from "./mcp.js";
export { createNullHookEngine } from "./null-hooks.js";
export { loadPermissionRules } from "./permission-rules.js";
export {
  isReadOnlyCommand,
  modeVerdict,
  PERMISSION_MODES,
  type PermissionMode,
  type PermissionVerdict,
} from "./permissions.js";
export { ImmutablePrefix, type PrefixOptions } from "./prefix.js";
export { createPromptRunner, type PromptRunnerOptions } from "./prompt-runner.js";
export { parseRendered, renderMessage } from "./render.js";
export { VolatileScratch } from "./scratch.js";
export { type OpenedSession, type OpenSessionOptions, openAgentSession } from "./session.js";
export { type AgentRunnerOptions, createAgentRunner, VERDICT_TOOL } from "./subagent.js";
export { SYSTEM_PROMPT } from "./system-prompt.js";
export type {
  Agent,
  AgentOptions,
  AgentStats,
  AskPermission,
  SessionPort,
  TurnOptions,
  UsageEntry,
} from "./types.js";
