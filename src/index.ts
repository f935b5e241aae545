/**
 * Keel's public library API: the cache-first agent, the hooks engine, the LLM client, the
 * built-in tools, sessions and the DeepSeek-compatible simulator.
 *
 * ```ts
 * const agent = await createAgent({ projectDir, client: createChatClient({ baseUrl, apiKey }),
 *   model: "deepseek-v4-flash", tools: createBuiltinTools({ cwd: projectDir }) });
 * for await (const ev of agent.runTurn("fix the failing test")) console.log(ev);
 * for await (const _ of agent.end("exit")) {}
 * ```
 */

export type * from "./agent/events.js";
export {
  AppendOnlyLog,
  createAgent,
  createAgentRunner,
  createNullHookEngine,
  createPromptRunner,
  DEFAULT_MAX_TURNS,
  ImmutablePrefix,
  isReadOnlyCommand,
  memorySession,
  modeVerdict,
  type OpenedSession,
  type OpenSessionOptions,
  openAgentSession,
  PERMISSION_MODES,
  type PermissionMode,
  type PermissionVerdict,
  parseRendered,
  renderMessage,
  SYSTEM_PROMPT,
  VolatileScratch,
} from "./agent/index.js";
export type { AgentMcp, McpServersOption } from "./agent/mcp.js";
export type {
  Agent,
  AgentOptions,
  AgentStats,
  AskPermission,
  RewindReport,
  SessionPort,
  TurnOptions,
  UsageEntry,
} from "./agent/types.js";
export * from "./hooks/events.js";
export { createHookEngine } from "./hooks/index.js";
export type * from "./hooks/types.js";
export {
  type ChatClientOptions,
  completeJson,
  costUsd,
  costWithoutCacheUsd,
  createChatClient,
  DEFAULT_BASE_URL,
  DEFAULT_MODEL,
  type LlmConfig,
  loadLlmConfig,
  stableStringify,
} from "./llm/index.js";
export type * from "./llm/types.js";
export {
  type ElicitationAnswer,
  type ElicitationHandler,
  type ElicitationRequest,
  loadMcpConfig,
  McpManager,
  type McpServerConfig,
  type McpServerStatus,
} from "./mcp/index.js";
export {
  createSession,
  latestSession,
  listSessions,
  loadSession,
  usageStats,
} from "./session/index.js";
export {
  reply,
  type ScriptFile,
  type Simulator,
  type SimulatorOptions,
  script,
  startSimulator,
} from "./sim/index.js";
export {
  type AnyTool,
  createBuiltinTools,
  READ_ONLY_TOOL_NAMES,
  toolSpecs,
  validateToolInput,
} from "./tools/index.js";
export type * from "./tools/types.js";
export { VERSION } from "./version.js";
