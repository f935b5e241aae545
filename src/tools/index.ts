/** The tools layer's public surface. */
export {
  type AnyToolDefinition,
  defineTool,
  type ToolDefinition,
  type ToolDefinitionInput,
  toolFrame,
} from "./define.js";
export {
  createEditFileTool,
  type EditFileInput,
  editFileSchema,
  editFileTool,
} from "./edit-file.js";
export {
  type FileOperations,
  type FileToolOptions,
  looksBinary,
  nodeFileOperations,
} from "./file-operations.js";
export { createGlobTool, type GlobInput, globSchema, globTool } from "./glob.js";
export { createGrepTool, type GrepInput, grepSchema, grepTool } from "./grep.js";
export { BUILTIN_TOOL_HOOK_FACTS, hookFactsOf, type ToolHookFacts } from "./hook-facts.js";
export { toParameters } from "./json-schema.js";
export { createListDirTool, type ListDirInput, listDirSchema, listDirTool } from "./list-dir.js";
export { displayPath, finalPath, resolveInProject } from "./paths.js";
export {
  createReadFileTool,
  type ReadFileInput,
  readFileSchema,
  readFileTool,
} from "./read-file.js";
export {
  type AnyTool,
  BUILTIN_TOOL_DEFINITIONS,
  BUILTIN_TOOL_SAMPLES,
  type BuiltinToolOptions,
  createBuiltinTools,
  findTool,
  READ_ONLY_TOOL_NAMES,
  type ToolSpecShape,
  toolSpecs,
  type ValidationResult,
  validateToolInput,
} from "./registry.js";
export { type SandboxStatus, sandboxStatus } from "./sandbox.js";
export {
  createShellTool,
  defaultShellOperations,
  type ShellInput,
  type ShellOperations,
  shellSchema,
  shellTool,
} from "./shell.js";
export { checkedCwd, cwdResetText } from "./shell-cwd.js";
export { type JobSummary, ShellJobs } from "./shell-jobs.js";
export {
  createSkillTool,
  type SkillCatalogPort,
  type SkillEntry,
  type SkillInput,
  skillSchema,
  skillTool,
  skillToolDescription,
} from "./skill.js";
export {
  createTodoWriteTool,
  TODO_MAX_ITEMS,
  type TodoWriteInput,
  todoWriteSchema,
  todoWriteTool,
} from "./todo-write.js";
export type {
  TodoItem,
  Tool,
  ToolContext,
  ToolEvent,
  ToolKind,
  ToolResult,
} from "./types.js";
export {
  type WebAccess,
  type WebGetResult,
  type WebSearchHit,
  type WebSearchOutcome,
  webFetchTool,
} from "./web-fetch.js";
export { webSearchTool } from "./web-search.js";
export {
  createWriteFileTool,
  type WriteFileInput,
  writeFileSchema,
  writeFileTool,
} from "./write-file.js";
