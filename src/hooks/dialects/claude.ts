/** The Claude Code dialect: PascalCase tools, `file_path` fields with absolute paths. */

import { nativeDefaultTimeoutSec, nativeStdinObject } from "./native.js";
import { createToolMapper, type ToolTable } from "./tool-map.js";
import type { Dialect } from "./types.js";

/** Keel tool → Claude Code tool (design §2.4). */
export const CLAUDE_TOOLS: ToolTable = {
  shell: { name: "Bash", fields: { timeout_ms: "timeout" } },
  read_file: { name: "Read", fields: { path: "file_path" } },
  write_file: { name: "Write", fields: { path: "file_path" } },
  edit_file: { name: "Edit", fields: { path: "file_path" } },
  glob: { name: "Glob" },
  grep: { name: "Grep", fields: { ignore_case: "-i" } },
  list_dir: { name: "LS" },
  task: { name: "Task" },
};

const tools = createToolMapper(CLAUDE_TOOLS, { absolutePaths: true });

/** Hooks from `.claude/settings*.json` and `~/.claude/settings.json`. */
export const claudeDialect: Dialect = {
  name: "claude",
  ...tools,
  eventName: (event) => event,
  stdinObject: (payload, shaped) => nativeStdinObject(payload, shaped, payload.hook_event_name),
  matcherStyle: "claude",
  matchesNonToolEvents: true,
  // Claude Code documents UserPromptSubmit as an event without matchers: one written there is
  // silently ignored, so the hook runs for every prompt.
  ignoresMatcherOn: new Set(["UserPromptSubmit"]),
  // Claude Code's updatedInput replaces the tool input; the hook saw every field (mapped), so a
  // field it left out was removed on purpose.
  updatedInputIsWhole: true,
  // Claude Code sends an exit-2 message to the model only after a tool ran; on SessionStart,
  // Notification, SessionEnd, SubagentStart and PostCompact it shows stderr to the user only.
  feedbackToModelOn: new Set(["PostToolUse", "PostToolUseFailure"]),
  defaultTimeoutSec: nativeDefaultTimeoutSec,
  exitTable: "native",
  parsesJson: true,
};
