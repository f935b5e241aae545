/**
 * Permissions: whether a call may run without asking, from the mode (modes.ts), the settings'
 * rules (rules.ts, with the tool names they may use in rule-tool-map.ts), MCP tools' annotations
 * (mcp.ts), protected paths and the auto-approval of read-only shell commands (auto-approve/).
 * Pure answers only: the pipeline's decide step (../pipeline/decide.ts) acts on them.
 */
export * from "./auto-approve/index.js";
export * from "./mcp.js";
export * from "./modes.js";
export * from "./protected-paths.js";
export * from "./rule-tool-map.js";
export * from "./rules.js";
