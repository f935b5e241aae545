/**
 * The Codex dialect (OpenAI's `codex` CLI): `~/.codex/hooks.json`, the `[[hooks.<Event>]]`
 * tables of `~/.codex/config.toml`, and the same two files in the project's `.codex/`. Claude
 * Code's settings shape with Codex's events, payload and rules (read.ts, payload.ts, exit.ts),
 * and Codex's tools as its hooks see them: the shell as `Bash` with `{command}`, every file edit
 * as `apply_patch` with the patch text in `{command}` (patch.ts). Measured against codex 0.171
 * by `npm run compat:codex` (compat/README.md).
 */
import { childPath } from "../../../base/index.js";
import type { ToolInput } from "../../events.js";
import { nativeEvents } from "../shared/native.js";
import { createToolMapper, type ToolTable } from "../shared/tool-map.js";
import { defineDialect } from "../types.js";
import { codexExitTable } from "./exit.js";
import { inputFromPatch, patchInput } from "./patch.js";
import { codexStdinObject } from "./payload.js";
import { CODEX_EVENTS, readCodexJson, readCodexToml } from "./read.js";

/** Keel tool → Codex tool, one to one (`apply_patch` back means edit_file). write_file is
 *  `apply_patch` too (toolName below); Keel's read/search tools have no Codex counterpart
 *  (Codex reads through the shell) and keep Keel's names. */
export const CODEX_TOOLS: ToolTable = {
  shell: { name: "Bash" },
  edit_file: { name: "apply_patch" },
};

const PATCH_TOOLS = new Set(["write_file", "edit_file"]);

const mapper = createToolMapper(CODEX_TOOLS, { absolutePaths: false });

/** The fields of Keel's input a Codex hook is not shown, kept when its rewrite comes back. */
function hiddenFields(input: ToolInput, shown: readonly string[]): ToolInput {
  return Object.fromEntries(Object.entries(input).filter(([k]) => !shown.includes(k)));
}

/** Hooks from Codex's files. */
export const codexDialect = defineDialect({
  name: "codex",
  label: "Codex",
  // Codex loads the user layer before the project layer, and in each layer hooks.json before
  // config.toml (both are read when both have hooks).
  files: (paths) => [
    { path: childPath(paths.homeDir, ".codex", "hooks.json"), scope: "user" },
    { path: childPath(paths.homeDir, ".codex", "config.toml"), scope: "user" },
    { path: childPath(paths.projectDir, ".codex", "hooks.json"), scope: "project" },
    { path: childPath(paths.projectDir, ".codex", "config.toml"), scope: "project" },
  ],
  compatSwitch: true,
  read: (text, ctx) =>
    ctx.path.endsWith(".toml") ? readCodexToml(text, ctx) : readCodexJson(text, ctx),
  ...mapper,
  // Codex writes files only through apply_patch: a whole-file write is an Add File patch.
  toolName: (keelTool) => (keelTool === "write_file" ? "apply_patch" : mapper.toolName(keelTool)),
  inputToDialect(keelTool, input, ctx) {
    if (keelTool === "shell") return { command: input.command };
    if (PATCH_TOOLS.has(keelTool)) return patchInput(keelTool, input) ?? input;
    return mapper.inputToDialect(keelTool, input, ctx);
  },
  inputFromDialect(keelTool, input, original, ctx) {
    if (keelTool === "shell") {
      return { ...hiddenFields(original, ["command"]), ...input };
    }
    if (PATCH_TOOLS.has(keelTool)) {
      // An unchanged patch gives the call back as the model wrote it.
      if (input.command === patchInput(keelTool, original)?.command) return original;
      const back = inputFromPatch(keelTool, input.command);
      // A patch this call cannot carry (another file kind, several hunks) changes nothing.
      if (back === null) return original;
      return {
        ...hiddenFields(original, ["path", "content", "old_string", "new_string"]),
        ...back,
      };
    }
    return mapper.inputFromDialect(keelTool, input, original, ctx);
  },
  eventName: nativeEvents.eventName,
  eventFromName: (name) => CODEX_EVENTS.get(name),
  stdinObject: codexStdinObject,
  // Codex runs a hook as `$SHELL -lc <command>` (/bin/sh when SHELL is unset).
  defaultShell: (env) => env.SHELL || undefined,
  matcherStyle: "claude",
  matchesNonToolEvents: true,
  ignoresMatcherOn: new Set(["UserPromptSubmit", "Stop", "PreCompact", "PostCompact"]),
  // A shell command that ran and failed fires PostToolUse in Codex (it has no
  // PostToolUseFailure; measured: `exit 3` gives PostToolUse with the output).
  ranToolFailureIsPostToolUse: true,
  updatedInputIsWhole: true,
  // Codex's default command timeout is 600 s (its discovery: `timeout.unwrap_or(600)`).
  defaultTimeoutSec: () => 600,
  timeoutUnit: "s",
  exitTable: codexExitTable,
  parsesJson: true,
});
