/**
 * Reasonix 1.x (the Go rewrite): the same `.reasonix/settings.json` location and flat
 * `{match, command, timeout(ms)}` entries as 0.x, but new tool names (bash, read_file,
 * write_file, edit_file with old_string/new_string, glob, grep), a payload with `sessionId`,
 * and events such as StopFailure. Measured on 1.38 (compat/README.md): stdout JSON from a
 * `.reasonix` hook is not read (a Claude-style deny lets the tool run), so exit codes decide.
 * A `.reasonix` file is read as 1.x unless it names a tool only 0.x has (looksLikeReasonix1).
 */
import { readJsonHooksFile } from "../../config/parse.js";
import { hooksFileSchema } from "../../config/schema.js";
import type { AnyEventPayload } from "../../events.js";
import { REASONIX_GATING, reasonixExitTable } from "../reasonix/exit.js";
import { readReasonixHooks } from "../reasonix/read.js";
import { nativeEvents } from "../shared/native.js";
import { createToolMapper, type ToolTable } from "../shared/tool-map.js";
import { defineDialect, type ExitTable, type ShapedTool } from "../types.js";
import {
  reasonixBashResult,
  reasonixEditResult,
  reasonixReadResult,
  reasonixWriteResult,
} from "./responses.js";
import { reasonix1SessionState } from "./session.js";

/** Keel tool → Reasonix 1.x tool. */
export const REASONIX1_TOOLS: ToolTable = {
  shell: { name: "bash" },
  read_file: { name: "read_file" },
  write_file: { name: "write_file" },
  edit_file: { name: "edit_file" },
  glob: { name: "glob" },
  grep: { name: "grep" },
  list_dir: { name: "list_directory" },
};

/** Reasonix 1.38's camelCase envelope: `{event, sessionId, cwd}` plus the event's own fields
 *  (measured: compat/README.md). `toolResult` is the tool's own text and is left out when empty. */
export function reasonix1StdinObject(
  payload: AnyEventPayload,
  shaped: ShapedTool,
): Record<string, unknown> {
  const p: Record<string, unknown> = { ...payload };
  const out: Record<string, unknown> = {
    event: payload.hook_event_name,
    sessionId: payload.session_id,
    cwd: payload.cwd,
  };
  if (typeof p.source === "string") out.source = p.source;
  if (typeof p.prompt === "string") out.prompt = p.prompt;
  if (shaped.toolName !== undefined) out.toolName = shaped.toolName;
  if (shaped.toolInput !== undefined) out.toolArgs = shaped.toolInput;
  const result = typeof shaped.toolResponse === "string" ? shaped.toolResponse : shaped.toolOutput;
  if (result !== undefined && result !== "") out.toolResult = result;
  if (typeof p.last_assistant_message === "string") {
    out.lastAssistantText = p.last_assistant_message;
  }
  const numbered =
    payload.hook_event_name === "UserPromptSubmit" || payload.hook_event_name === "Stop";
  if (numbered && shaped.turn !== undefined) out.turn = shaped.turn;
  if (typeof p.reason === "string") out.reason = p.reason;
  return out;
}

/** Reasonix's exit codes (0 pass, 2 blocks a gating event, anything else warns). */
const reasonix1ExitTable: ExitTable = { ...reasonixExitTable, name: "reasonix1" };

/** Reasonix 1.x hooks (its files are found through the reasonix dialect). */
export const reasonix1Dialect = defineDialect({
  name: "reasonix1",
  label: "Reasonix 1.x",
  files: () => [],
  compatSwitch: false,
  read: (text, ctx) => readJsonHooksFile(text, ctx, hooksFileSchema(), readReasonixHooks),
  ...createToolMapper(REASONIX1_TOOLS, { absolutePaths: false }),
  toolResponses: {
    shell: reasonixBashResult,
    read_file: reasonixReadResult,
    write_file: reasonixWriteResult,
    edit_file: reasonixEditResult,
  },
  ...nativeEvents,
  sessionState: reasonix1SessionState,
  stdinObject: reasonix1StdinObject,
  matcherStyle: "anchored",
  inOrderChain: "reasonix",
  matchesNonToolEvents: false,
  defaultTimeoutSec: (event) => (REASONIX_GATING.has(event) ? 5 : 30),
  timeoutUnit: "ms",
  exitTable: reasonix1ExitTable,
  parsesJson: false,
});

/** Tool names only Reasonix 0.x has: a file matching one of them was written for 0.x. */
const ONLY_0X_TOOLS = new Set(["run_command", "search_files", "search_content"]);

/**
 * Whether a parsed `.reasonix` hooks value is read as 1.x, the current Reasonix: yes unless a
 * matcher names a tool only 0.x has (and no 1.x tool or 1.x-only event says otherwise), so
 * a file without tool names sees what Reasonix 1.38 sends.
 */
export function looksLikeReasonix1(hooks: unknown): boolean {
  if (typeof hooks !== "object" || hooks === null || Array.isArray(hooks)) return true;
  if (names1x(hooks)) return true;
  return !namesTool(hooks, ONLY_0X_TOOLS);
}

function namesTool(hooks: object, names: ReadonlySet<string>): boolean {
  for (const entries of Object.values(hooks)) {
    if (!Array.isArray(entries)) continue;
    for (const e of entries) {
      const match =
        typeof e === "object" && e !== null ? (e as { match?: unknown }).match : undefined;
      if (typeof match !== "string") continue;
      if (match.split("|").some((name) => names.has(name.trim()))) return true;
    }
  }
  return false;
}

/** A 1.x tool name in a matcher, or an event only 1.x fires. */
function names1x(hooks: object): boolean {
  if (Object.keys(hooks).some((event) => event === "StopFailure" || event === "PostLLMCall")) {
    return true;
  }
  return namesTool(hooks, new Set(["bash", "glob", "grep"]));
}
