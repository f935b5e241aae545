/** The Claude Code dialect: PascalCase tools, `file_path` fields with absolute paths. */
import { childPath } from "../../../base/index.js";
import { nativeDefaultTimeoutSec, nativeEvents, readClaudeStyleFile } from "../shared/native.js";
import { defineDialect } from "../types.js";
import {
  claudeEnv,
  claudeExitTable,
  claudeSessionEndReason,
  claudeStdinObject,
} from "./payload.js";
import {
  claudeBashResponse,
  claudeEditResponse,
  claudeReadResponse,
  claudeWriteResponse,
} from "./responses.js";
import { claudeTools } from "./tools.js";
import { claudeTranscript } from "./transcript.js";

export { CLAUDE_TOOLS } from "./tools.js";

/** Hooks from `~/.claude/settings.json` and `.claude/settings*.json`. */
export const claudeDialect = defineDialect({
  name: "claude",
  label: "Claude Code",
  files: (paths) => [
    { path: childPath(paths.homeDir, ".claude", "settings.json"), scope: "user" },
    { path: childPath(paths.projectDir, ".claude", "settings.json"), scope: "project" },
    { path: childPath(paths.projectDir, ".claude", "settings.local.json"), scope: "local" },
  ],
  compatSwitch: true,
  honoursDisableAll: true,
  read: readClaudeStyleFile,
  ...claudeTools,
  toolResponses: {
    shell: claudeBashResponse,
    read_file: claudeReadResponse,
    write_file: claudeWriteResponse,
    edit_file: claudeEditResponse,
  },
  ...nativeEvents,
  stdinObject: claudeStdinObject,
  transcript: claudeTranscript,
  env: claudeEnv,
  matcherStyle: "claude",
  matchesNonToolEvents: true,
  // A `prompt_input_exit` matcher on SessionEnd fires when the user leaves Keel's prompt.
  triggerValue: (event, value) => (event === "SessionEnd" ? claudeSessionEndReason(value) : value),
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
  timeoutUnit: "s",
  exitTable: claudeExitTable,
  parsesJson: true,
});
