/**
 * The `.hooks.json` tutorial dialect: `HOOK_*` environment variables, exit 0 continue, 1 block,
 * 2 inject stderr as a message; exact-name matchers; 30 s timeout; every matching hook runs, in
 * order, each seeing the input as the ones before it rewrote it.
 */
import { childPath } from "../../../base/index.js";
import { DEFAULT_TIMEOUT_SEC } from "../../events.js";
import { nativeEvents, nativeStdinObject, readClaudeStyleFile } from "../shared/native.js";
import { createToolMapper, type ToolTable } from "../shared/tool-map.js";
import { defineDialect } from "../types.js";
import { tutorialExitTable } from "./exit.js";

/** Keel tool → tutorial tool (docs/hooks.md "Tool names and input fields"); tools it lacks keep Keel's names. */
export const TUTORIAL_TOOLS: ToolTable = {
  shell: { name: "bash" },
  read_file: { name: "read_file" },
  write_file: { name: "write_file" },
  edit_file: { name: "edit_file", fields: { old_string: "old_text", new_string: "new_text" } },
};

/** Hooks from `<project>/.hooks.json`. */
export const tutorialDialect = defineDialect({
  name: "tutorial",
  label: "the .hooks.json format",
  files: (paths) => [{ path: childPath(paths.projectDir, ".hooks.json"), scope: "project" }],
  compatSwitch: true,
  read: readClaudeStyleFile,
  ...createToolMapper(TUTORIAL_TOOLS, { absolutePaths: false }),
  ...nativeEvents,
  // The tutorial format reads environment variables; stdin carries the native JSON anyway.
  stdinObject: (payload, shaped) => nativeStdinObject(payload, shaped, payload.hook_event_name),
  matcherStyle: "exact",
  // Its runner (learn-claude-code's s08_hook_system.py, run_hooks) runs every matching hook in
  // order, blocks when any exited 1, and sets its context's tool input to an `updatedInput`,
  // from which the next hook's HOOK_TOOL_INPUT is built. (That runner then calls the tool with
  // the original input; Keel applies the rewrite, merged into the call's input as before.)
  inOrderChain: "tutorial",
  inOrderRunsAll: true,
  inOrderPassesInput: true,
  matchesNonToolEvents: true,
  defaultTimeoutSec: (_event, type) => (type === "command" ? 30 : DEFAULT_TIMEOUT_SEC[type]),
  timeoutUnit: "s",
  exitTable: tutorialExitTable,
  parsesJson: true,
});
