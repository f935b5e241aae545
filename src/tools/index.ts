/** The tools layer's public surface. */
export { createEditFileTool, type EditFileInput, editFileSchema } from "./edit-file.js";
export {
  type FileOperations,
  type FileToolOptions,
  looksBinary,
  nodeFileOperations,
} from "./file-operations.js";
export { createGlobTool, type GlobInput, globSchema } from "./glob.js";
export { createGrepTool, type GrepInput, grepSchema } from "./grep.js";
export { toParameters } from "./json-schema.js";
export { createListDirTool, type ListDirInput, listDirSchema } from "./list-dir.js";
export { displayPath, resolveInProject } from "./paths.js";
export { createReadFileTool, type ReadFileInput, readFileSchema } from "./read-file.js";
export {
  type AnyTool,
  type BuiltinToolOptions,
  createBuiltinTools,
  findTool,
  READ_ONLY_TOOL_NAMES,
  type ToolSpecShape,
  toolSpecs,
  type ValidationResult,
  validateToolInput,
} from "./registry.js";
export {
  createShellTool,
  defaultShellOperations,
  type ShellInput,
  type ShellOperations,
  shellSchema,
} from "./shell.js";
export type { Tool, ToolContext, ToolKind, ToolResult } from "./types.js";
export { createWriteFileTool, type WriteFileInput, writeFileSchema } from "./write-file.js";
