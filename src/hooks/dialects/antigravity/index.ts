/**
 * The Antigravity dialect (Google's Antigravity CLI, `agy`, Gemini CLI's successor):
 * `.agents/hooks.json` in the project and `~/.gemini/config/hooks.json` (the file agy reads;
 * the `~/.gemini/antigravity-cli/` folder its --help names was found not to be read). Named
 * hooks with their own events (read.ts), camelCase payloads (payload.ts), JSON-only answers
 * (exit.ts) and its tool names with PascalCase arguments (run_command `{CommandLine, Cwd}`,
 * write_to_file `{TargetFile, CodeContent}`, replace_file_content `{TargetFile,
 * TargetContent, ReplacementContent, AllowMultiple}`, view_file `{AbsolutePath, StartLine}`).
 * No agy binary runs here (it needs a Google sign-in), so this follows the published docs and
 * captured payloads, not a differential run; docs/hooks.md says which is which.
 */
import { childPath } from "../../../base/index.js";
import type { HookEventName, ToolInput } from "../../events.js";
import { createToolMapper, type ToolTable } from "../shared/tool-map.js";
import { defineDialect } from "../types.js";
import { antigravityExitTable } from "./exit.js";
import { antigravitySessionState, antigravityStdinObject } from "./payload.js";
import { ANTIGRAVITY_EVENTS, readAntigravityFile } from "./read.js";

/** Keel tool → Antigravity tool. Fields are mapped only where a captured payload shows them;
 *  the search tools keep Keel's field names. */
export const ANTIGRAVITY_TOOLS: ToolTable = {
  shell: { name: "run_command", fields: { command: "CommandLine" } },
  read_file: { name: "view_file", fields: { path: "AbsolutePath", offset: "StartLine" } },
  write_file: { name: "write_to_file", fields: { path: "TargetFile", content: "CodeContent" } },
  edit_file: {
    name: "replace_file_content",
    fields: {
      path: "TargetFile",
      old_string: "TargetContent",
      new_string: "ReplacementContent",
      replace_all: "AllowMultiple",
    },
  },
  list_dir: { name: "list_dir" },
  grep: { name: "grep_search" },
  glob: { name: "find_by_name" },
  web_fetch: { name: "read_url_content" },
};

const mapper = createToolMapper(ANTIGRAVITY_TOOLS, { absolutePaths: true });

/** Keel event → the name Antigravity's hooks see. */
const NAMES: ReadonlyMap<HookEventName, string> = new Map([
  ["PreToolUse", "PreToolUse"],
  ["PostToolUse", "PostToolUse"],
  ["UserPromptSubmit", "PreInvocation"],
  ["Stop", "Stop"],
  ["SessionStart", "SessionStart"],
]);

/** Hooks from Antigravity's hooks.json files. */
export const antigravityDialect = defineDialect({
  name: "antigravity",
  label: "Antigravity",
  files: (paths) => [
    { path: childPath(paths.homeDir, ".gemini", "config", "hooks.json"), scope: "user" },
    { path: childPath(paths.projectDir, ".agents", "hooks.json"), scope: "project" },
  ],
  compatSwitch: true,
  read: readAntigravityFile,
  ...mapper,
  inputToDialect(keelTool, input, ctx) {
    const out = mapper.inputToDialect(keelTool, input, ctx);
    // agy's run_command names the folder it runs in; Keel's shell runs in the project.
    return keelTool === "shell" ? { ...out, Cwd: ctx.projectDir } : out;
  },
  inputFromDialect(keelTool, input, original, ctx) {
    const back: ToolInput = { ...input };
    if (keelTool === "shell") delete back.Cwd;
    return mapper.inputFromDialect(keelTool, back, original, ctx);
  },
  eventName: (event) => NAMES.get(event) ?? event,
  eventFromName: (name) => ANTIGRAVITY_EVENTS.get(name.toLowerCase()) ?? undefined,
  sessionState: antigravitySessionState,
  stdinObject: antigravityStdinObject,
  // A tool matcher is a regular expression on the tool name; "" and "*" match every tool.
  matcherStyle: "claude",
  // PreInvocation, PostInvocation, Stop and SessionStart ignore a matcher.
  matchesNonToolEvents: false,
  // A command that ran and failed reaches PostToolUse hooks with `error` set.
  ranToolFailureIsPostToolUse: true,
  // Antigravity publishes no default; Keel gives its command hooks a minute, as Gemini CLI's.
  defaultTimeoutSec: () => 60,
  timeoutUnit: "s",
  exitTable: antigravityExitTable,
  parsesJson: true,
});
