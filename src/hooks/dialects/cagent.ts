/**
 * The cagent dialect (YAML agent files): snake_case event names, `shell {cmd}`, snake_case
 * JSON output, anchored matchers.
 */
import type { HookEventName } from "../events.js";
import { nativeDefaultTimeoutSec, nativeStdinObject } from "./native.js";
import { createToolMapper, type ToolTable } from "./tool-map.js";
import type { Dialect } from "./types.js";

/** Keel tool → cagent tool (design §2.4). */
export const CAGENT_TOOLS: ToolTable = {
  shell: { name: "shell", fields: { command: "cmd" } },
  read_file: { name: "read_file" },
  write_file: { name: "write_file" },
  edit_file: { name: "edit_file" },
  list_dir: { name: "list_directory" },
};

/** cagent's event keys that are not simply the snake_case of Keel's names. */
const SPECIAL: Partial<Record<HookEventName, string>> = { Notification: "on_user_input" };

/** The cagent spelling of a Keel event (`PreToolUse` → `pre_tool_use`). */
export function cagentEventName(event: HookEventName): string {
  return SPECIAL[event] ?? event.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase();
}

const tools = createToolMapper(CAGENT_TOOLS, { absolutePaths: false });

/** Hooks from the YAML agent files named in settings `compat.cagent`. */
export const cagentDialect: Dialect = {
  name: "cagent",
  ...tools,
  eventName: cagentEventName,
  stdinObject: (payload, shaped) =>
    nativeStdinObject(payload, shaped, cagentEventName(payload.hook_event_name)),
  matcherStyle: "anchored",
  matchesNonToolEvents: true,
  defaultTimeoutSec: nativeDefaultTimeoutSec,
  exitTable: "native",
  parsesJson: true,
};
