/** The agent layer's public surface: `createAgent`, its options and events, sessions, runners. */
export { createAgent, DEFAULT_MAX_TURNS, memorySession } from "./agent.js";
export type { CommandCatalog } from "./commands/load.js";
export type * from "./events.js";
export { createNullHookEngine } from "./hook-adapter/null-engine.js";
export { AppendOnlyLog } from "./log.js";
export type { AgentMcp, McpServersOption } from "./mcp.js";
export {
  isReadOnlyCommand,
  modeVerdict,
  PERMISSION_MODES,
  type PermissionMode,
  type PermissionVerdict,
} from "./permissions/modes.js";
export { loadPermissionRules, type PermissionRules } from "./permissions/rules.js";
export { untrustedHookLine } from "./pipeline/gate-text.js";
export {
  untrustedMatching,
  untrustedProjectHooks,
  untrustedWhy,
} from "./pipeline/untrusted-gate.js";
export { ImmutablePrefix, type PrefixOptions } from "./prefix.js";
export { createPromptRunner, type PromptRunnerOptions } from "./prompt-runner.js";
export { childProcessEnv } from "./provider-env.js";
export { branchLine, planLines } from "./reasoning-lines.js";
export { parseRendered, renderMessage } from "./render.js";
export { VolatileScratch } from "./scratch.js";
export { type OpenedSession, type OpenSessionOptions, openAgentSession } from "./session.js";
export { type AgentRunnerOptions, createAgentRunner, VERDICT_TOOL } from "./subagent.js";
export { SYSTEM_PROMPT } from "./system-prompt.js";
export { sessionToolOptions } from "./tool-options.js";
export type {
  Agent,
  AgentOptions,
  AgentStats,
  AskPermission,
  InlineImage,
  RewindReport,
  SessionPort,
  TurnOptions,
  UsageEntry,
} from "./types.js";
export { type WebSetup, webAccessFor } from "./web-access.js";
