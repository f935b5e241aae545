/**
 * The other names Qwen Code 0.24 lets a hook matcher write for each tool Keel maps to (its
 * hookPlanner's getToolMatcherTargets: the display name, `<display>Tool`, legacy names and the
 * Claude Code names of its TOOL_NAME_ALIASES table). They match only when written whole, alone
 * or as one entry of a `|` list (`Bash`, `Bash|Write`); `Bas` does not (match.ts qwenMatcher).
 */
const QWEN_TOOL_ALIASES: Readonly<Record<string, readonly string[]>> = {
  run_shell_command: ["Shell", "ShellTool", "Bash"],
  read_file: ["ReadFile", "ReadFileTool", "Read"],
  write_file: ["WriteFile", "WriteFileTool", "Write"],
  edit: ["Edit", "EditTool", "replace"],
  glob: ["Glob", "GlobTool", "FindFiles"],
  grep_search: ["Grep", "GrepTool", "search_file_content", "SearchFiles"],
  list_directory: ["ListFiles", "ListFilesTool", "ReadFolder"],
};

/** The aliases of Qwen tool `own` (none for a tool Qwen Code does not have). */
export function qwenToolAliases(own: string): readonly string[] {
  return QWEN_TOOL_ALIASES[own] ?? [];
}
