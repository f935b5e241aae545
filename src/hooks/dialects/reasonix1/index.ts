/**
 * Reasonix 1.x (the Go rewrite): the same `.reasonix/settings.json` location and flat
 * `{match, command, timeout(ms)}` entries as 0.x, but new tool names (bash, read_file,
 * write_file, edit_file with old_string/new_string, glob, grep), Claude Code's JSON output
 * for deny and additionalContext, and events such as StopFailure. A `.reasonix` file is read
 * as 1.x when it names a 1.x-only tool or event (see reasonix/read.ts).
 */
import { readJsonHooksFile } from "../../config/parse.js";
import { HooksFileSchema } from "../../config/schema.js";
import { REASONIX_GATING } from "../reasonix/exit.js";
import { readReasonixHooks } from "../reasonix/read.js";
import { nativeExitTable } from "../shared/exit-native.js";
import { nativeEvents, nativeStdinObject } from "../shared/native.js";
import { createToolMapper, type ToolTable } from "../shared/tool-map.js";
import { defineDialect, type ExitTable } from "../types.js";

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

/** Claude-style exit codes and JSON, but only Reasonix's gating events can block. */
const reasonix1ExitTable: ExitTable = {
  name: "reasonix1",
  gating: (event) => REASONIX_GATING.has(event),
  decide: (ctx, run) => nativeExitTable.decide(ctx, run),
};

/** Reasonix 1.x hooks (its files are found through the reasonix dialect). */
export const reasonix1Dialect = defineDialect({
  name: "reasonix1",
  label: "Reasonix 1.x",
  files: () => [],
  compatSwitch: false,
  read: (text, ctx) => readJsonHooksFile(text, ctx, HooksFileSchema, readReasonixHooks),
  ...createToolMapper(REASONIX1_TOOLS, { absolutePaths: false }),
  ...nativeEvents,
  stdinObject: (payload, shaped) => nativeStdinObject(payload, shaped, payload.hook_event_name),
  matcherStyle: "anchored",
  matchesNonToolEvents: false,
  defaultTimeoutSec: (event) => (REASONIX_GATING.has(event) ? 5 : 30),
  timeoutUnit: "ms",
  exitTable: reasonix1ExitTable,
  parsesJson: true,
});

/** Whether a parsed `.reasonix` hooks value is written for 1.x: a 1.x tool name in a matcher,
 *  or an event only 1.x fires. */
export function looksLikeReasonix1(hooks: unknown): boolean {
  if (typeof hooks !== "object" || hooks === null || Array.isArray(hooks)) return false;
  const only1 = new Set(["bash", "glob", "grep"]);
  for (const [event, entries] of Object.entries(hooks)) {
    if (event === "StopFailure" || event === "PostLLMCall") return true;
    if (!Array.isArray(entries)) continue;
    for (const e of entries) {
      const match =
        typeof e === "object" && e !== null ? (e as { match?: unknown }).match : undefined;
      if (typeof match !== "string") continue;
      if (match.split("|").some((name) => only1.has(name.trim()))) return true;
    }
  }
  return false;
}
