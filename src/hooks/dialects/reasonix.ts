/**
 * The Reasonix dialect: a camelCase envelope on stdin, exit codes only (0 pass, 2 block on its
 * gating events), 5 s / 30 s default timeouts, matchers only on tool events.
 */
import type { HookEventName } from "../events.js";
import { createToolMapper, type ToolTable } from "./tool-map.js";
import type { Dialect } from "./types.js";

/** Keel tool → Reasonix tool (design §2.4). */
export const REASONIX_TOOLS: ToolTable = {
  shell: { name: "run_command" },
  read_file: { name: "read_file" },
  write_file: { name: "write_file" },
  edit_file: { name: "edit_file", fields: { old_string: "search", new_string: "replace" } },
  glob: { name: "search_files" },
  grep: { name: "search_content" },
  list_dir: { name: "list_directory" },
};

/** The events Reasonix lets a hook block (its Stop exit 2 is only a warning). */
export const REASONIX_GATING: ReadonlySet<HookEventName> = new Set([
  "PreToolUse",
  "UserPromptSubmit",
  "PermissionRequest",
]);

const tools = createToolMapper(REASONIX_TOOLS, { absolutePaths: false });

/** Hooks from `.reasonix/settings.json` and `~/.reasonix/settings.json`. */
export const reasonixDialect: Dialect = {
  name: "reasonix",
  ...tools,
  eventName: (event) => event,
  stdinObject(payload, shaped) {
    const p: Record<string, unknown> = { ...payload };
    const out: Record<string, unknown> = { event: payload.hook_event_name, cwd: payload.cwd };
    if (shaped.toolName !== undefined) out.toolName = shaped.toolName;
    if (shaped.toolInput !== undefined) out.toolArgs = shaped.toolInput;
    if (shaped.toolOutput !== undefined) out.toolResult = shaped.toolOutput;
    if (typeof p.prompt === "string") out.prompt = p.prompt;
    if (typeof p.last_assistant_message === "string") {
      out.lastAssistantText = p.last_assistant_message;
    }
    if (typeof p.turn === "number") out.turn = p.turn;
    return out;
  },
  matcherStyle: "anchored",
  matchesNonToolEvents: false,
  defaultTimeoutSec: (event) => (REASONIX_GATING.has(event) ? 5 : 30),
  exitTable: "reasonix",
  parsesJson: false,
};
