/**
 * The Qwen Code dialect (`.qwen/settings.json`, `~/.qwen/settings.json`): Claude Code's
 * settings shape and events with Qwen's tool names, payload and rules, as Qwen Code 0.24.4
 * behaves (measured with `npm run compat:qwen`, see compat/README.md): command timeouts in
 * seconds, 1000 or more still milliseconds as 0.15 wrote them (./timeout.ts); tool matchers
 * exact on the name and its aliases, else unanchored regexes (./aliases.ts); no matchers on
 * UserPromptSubmit and Stop; plain stdout context only on SessionStart, UserPromptSubmit and
 * UserPromptExpansion (./exit.ts); exit-2 messages after a tool shown to the user only; a
 * failed shell command fires PostToolUseFailure (./exit-status.ts).
 */
import { childPath } from "../../../base/index.js";
import type { HookEventName } from "../../events.js";
import { expandNamedVars, markSequential, readNameAndEnv } from "../shared/gemini-family.js";
import { nativeDefaultTimeoutSec, nativeEvents, readClaudeStyleFile } from "../shared/native.js";
import { createToolMapper, type ToolTable } from "../shared/tool-map.js";
import { defineDialect } from "../types.js";
import { qwenToolAliases } from "./aliases.js";
import { qwenEnv } from "./env.js";
import { qwenExitTable } from "./exit.js";
import { qwenShellExitIsError } from "./exit-status.js";
import { qwenStdinObject } from "./payload.js";
import {
  qwenEditResponse,
  qwenReadResponse,
  qwenShellResponse,
  qwenWriteResponse,
} from "./responses.js";
import { qwenSessionState } from "./session.js";
import { QWEN_COMMAND_DEFAULT_SEC, qwenCommandTimeoutSec } from "./timeout.js";

/** Keel tool → Qwen Code tool (Qwen Code, a Gemini CLI fork; the same names in 0.15 and 0.24). */
export const QWEN_TOOLS: ToolTable = {
  shell: { name: "run_shell_command", fields: { timeout_ms: "timeout" } },
  read_file: { name: "read_file", fields: { path: "file_path" } },
  write_file: { name: "write_file", fields: { path: "file_path" } },
  edit_file: { name: "edit", fields: { path: "file_path" } },
  glob: { name: "glob" },
  grep: { name: "grep_search" },
  list_dir: { name: "list_directory" },
};

const NO_MATCHER_EVENTS: ReadonlySet<HookEventName> = new Set(["UserPromptSubmit", "Stop"]);

/** Hooks from Qwen Code's settings files. */
export const qwenDialect = defineDialect({
  name: "qwen",
  label: "Qwen Code",
  // Qwen Code runs project hooks before user hooks (its HookRegistry sorts by source priority:
  // project 1, user 2), so the project file comes first in configuration order.
  files: (paths) => [
    { path: childPath(paths.projectDir, ".qwen", "settings.json"), scope: "project" },
    { path: childPath(paths.homeDir, ".qwen", "settings.json"), scope: "user" },
  ],
  compatSwitch: true,
  // Qwen Code honours `"disableAllHooks": true`; Keel bounds a project file's to the project's
  // own hooks (config/settings.ts), where Qwen Code would silence the user's hooks too.
  honoursDisableAll: true,
  read(text, ctx) {
    const read = readClaudeStyleFile(text, ctx);
    const problems = [...read.problems];
    readNameAndEnv(read.hooks, read.settings, ctx, problems);
    markSequential(read.hooks, read.settings);
    // Seconds, or milliseconds from 1000 up, as Qwen Code 0.24 reads them (./timeout.ts); its
    // http hooks' timeouts were always seconds.
    for (const h of read.hooks) {
      if (h.handler.type === "command" && h.handler.timeout !== undefined) {
        h.handler.timeout = qwenCommandTimeoutSec(h.handler.timeout);
      }
    }
    return { ...read, problems };
  },
  ...createToolMapper(QWEN_TOOLS, { absolutePaths: true }),
  toolResponses: {
    shell: qwenShellResponse,
    read_file: qwenReadResponse,
    write_file: qwenWriteResponse,
    edit_file: qwenEditResponse,
  },
  ...nativeEvents,
  stdinObject: qwenStdinObject,
  sessionState: qwenSessionState,
  env: qwenEnv,
  // Its hookRunner writes the project directory into the command text for these two.
  expandCommand: (command, env) =>
    expandNamedVars(command, ["GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR"], env),
  // Qwen Code 0.24: a regex found anywhere in the name, after exact checks on the name and its
  // aliases (Claude's `Bash`, its display name `Shell`): ./aliases.ts, match.ts qwenMatcher.
  matcherStyle: "qwen",
  toolAliases: qwenToolAliases,
  // Qwen Code 0.24 fires PostToolUseFailure for a failed shell command (0.15 fired PostToolUse),
  // except an exit 1 that means "no match" (`grep`, `diff`, `test`): ./exit-status.ts.
  ranToolFailureIsPostToolUse: (ranAs) => {
    if (ranAs.tool_name !== "shell") return false;
    const command = ranAs.tool_input.command;
    const response = ranAs.tool_response as { exitCode?: unknown } | undefined;
    const code = typeof response?.exitCode === "number" ? response.exitCode : null;
    return typeof command === "string" && !qwenShellExitIsError(command, code);
  },
  matchesNonToolEvents: true,
  ignoresMatcherOn: NO_MATCHER_EVENTS,
  updatedInputIsWhole: true,
  // A PostToolUse exit 2 or decision "block" never reaches Qwen's model.
  feedbackToModelOn: new Set(),
  defaultTimeoutSec: (event, type) =>
    type === "command" ? QWEN_COMMAND_DEFAULT_SEC : nativeDefaultTimeoutSec(event, type),
  timeoutUnit: "s-or-ms",
  exitTable: qwenExitTable,
  parsesJson: true,
});
