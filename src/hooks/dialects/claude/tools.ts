/** Keel's tools as Claude Code names them, and the mapper built from that table (the dialect
 *  and its transcript writer, ./transcript.ts, share it). */
import { createToolMapper, type ToolTable } from "../shared/tool-map.js";

/** Keel tool → Claude Code tool (docs/hooks.md "Tool names and input fields"). */
export const CLAUDE_TOOLS: ToolTable = {
  shell: { name: "Bash", fields: { timeout_ms: "timeout" } },
  read_file: { name: "Read", fields: { path: "file_path" } },
  write_file: { name: "Write", fields: { path: "file_path" } },
  edit_file: { name: "Edit", fields: { path: "file_path" } },
  glob: { name: "Glob" },
  grep: { name: "Grep", fields: { ignore_case: "-i" } },
  list_dir: { name: "LS" },
  task: { name: "Task" },
  todo_write: { name: "TodoWrite" },
  skill: { name: "Skill" },
  shell_output: { name: "BashOutput", fields: { id: "bash_id" } },
  kill_shell: { name: "KillShell", fields: { id: "shell_id" } },
  web_fetch: { name: "WebFetch" },
  web_search: { name: "WebSearch" },
};

/** Tool names and input fields, Keel ↔ Claude Code (absolute `file_path`s). */
export const claudeTools = createToolMapper(CLAUDE_TOOLS, { absolutePaths: true });
