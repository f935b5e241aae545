/**
 * The `.hooks.json` tutorial dialect: `HOOK_*` environment variables, exit 0 continue, 1 block,
 * 2 inject stderr as a message; exact-name matchers; 30 s timeout.
 */
import { DEFAULT_TIMEOUT_SEC } from "../events.js";
import { nativeStdinObject } from "./native.js";
import { createToolMapper, type ToolTable } from "./tool-map.js";
import type { Dialect } from "./types.js";

/** Keel tool → tutorial tool (design §2.4); tools it lacks keep Keel's names. */
export const TUTORIAL_TOOLS: ToolTable = {
  shell: { name: "bash" },
  read_file: { name: "read_file" },
  write_file: { name: "write_file" },
  edit_file: { name: "edit_file", fields: { old_string: "old_text", new_string: "new_text" } },
};

const tools = createToolMapper(TUTORIAL_TOOLS, { absolutePaths: false });

/** Hooks from `<project>/.hooks.json`. */
export const tutorialDialect: Dialect = {
  name: "tutorial",
  ...tools,
  eventName: (event) => event,
  // The tutorial format reads environment variables; stdin carries the native JSON anyway.
  stdinObject: (payload, shaped) => nativeStdinObject(payload, shaped, payload.hook_event_name),
  matcherStyle: "exact",
  matchesNonToolEvents: true,
  defaultTimeoutSec: (_event, type) => (type === "command" ? 30 : DEFAULT_TIMEOUT_SEC[type]),
  exitTable: "tutorial",
  parsesJson: true,
};
