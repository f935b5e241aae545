/** The Qwen Code dialect (`.qwen/settings.json`, `~/.qwen/settings.json`): Claude Code's
 *  contract (events, JSON output, exit codes) with Qwen's tool names. */
import { join } from "node:path";
import { nativeExitTable } from "../shared/exit-native.js";
import {
  nativeDefaultTimeoutSec,
  nativeEvents,
  nativeStdinObject,
  readClaudeStyleFile,
} from "../shared/native.js";
import { createToolMapper, type ToolTable } from "../shared/tool-map.js";
import { defineDialect } from "../types.js";

/** Keel tool → Qwen Code tool (Qwen Code 0.15, a Gemini CLI fork). */
export const QWEN_TOOLS: ToolTable = {
  shell: { name: "run_shell_command" },
  read_file: { name: "read_file", fields: { path: "absolute_path" } },
  write_file: { name: "write_file", fields: { path: "file_path" } },
  edit_file: { name: "edit", fields: { path: "file_path" } },
  glob: { name: "glob" },
  grep: { name: "grep_search" },
  list_dir: { name: "list_directory" },
};

/** Hooks from Qwen Code's settings files. */
export const qwenDialect = defineDialect({
  name: "qwen",
  label: "Qwen Code",
  files: (paths) => [
    { path: join(paths.homeDir, ".qwen", "settings.json"), scope: "user" },
    { path: join(paths.projectDir, ".qwen", "settings.json"), scope: "project" },
  ],
  compatSwitch: true,
  read: readClaudeStyleFile,
  ...createToolMapper(QWEN_TOOLS, { absolutePaths: true }),
  ...nativeEvents,
  stdinObject: (payload, shaped) => nativeStdinObject(payload, shaped, payload.hook_event_name),
  env: (_payload, ctx) => ({
    QWEN_PROJECT_DIR: ctx.projectDir,
    GEMINI_PROJECT_DIR: ctx.projectDir,
  }),
  matcherStyle: "claude",
  matchesNonToolEvents: true,
  updatedInputIsWhole: true,
  defaultTimeoutSec: nativeDefaultTimeoutSec,
  timeoutUnit: "s",
  exitTable: nativeExitTable,
  parsesJson: true,
});
