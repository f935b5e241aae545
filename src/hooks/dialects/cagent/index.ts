/**
 * The cagent (docker-agent) dialect: YAML agent files named in Keel settings `compat.cagent`,
 * snake_case event names, `shell {cmd}`, snake_case JSON output, anchored matchers.
 */

import { parseYamlText } from "../../config/parse.js";
import { expandHome, isInside } from "../../config/paths.js";
import type { SourceScope } from "../../types.js";
import { nativeExitTable } from "../shared/exit-native.js";
import { nativeDefaultTimeoutSec, nativeStdinObject } from "../shared/native.js";
import { createToolMapper, type ToolTable } from "../shared/tool-map.js";
import { type DialectFile, defineDialect } from "../types.js";
import { cagentEventFromName, cagentEventName } from "./events.js";
import { readCagentHooks } from "./read.js";

export { cagentEventName } from "./events.js";

/** Keel tool → cagent tool (design §2.4). */
export const CAGENT_TOOLS: ToolTable = {
  shell: { name: "shell", fields: { command: "cmd" } },
  read_file: { name: "read_file" },
  write_file: { name: "write_file" },
  edit_file: { name: "edit_file" },
  list_dir: { name: "list_directory" },
};

/** Hooks from the YAML agent files named in settings `compat.cagent`. */
export const cagentDialect = defineDialect({
  name: "cagent",
  label: "cagent",
  files(paths, settings) {
    // A file named by user-level settings is user-level when it lies outside the project and
    // no project file names it too: a project must not make hooks trusted by naming a file.
    const names = [
      ...settings.cagent.user.map((name) => ({ name, byUser: true })),
      ...settings.cagent.project.map((name) => ({ name, byUser: false })),
    ];
    const scopes = new Map<string, SourceScope>();
    for (const { name, byUser } of names) {
      const path = expandHome(name, paths);
      const userOnly =
        byUser && !isInside(paths.projectDir, path) && scopes.get(path) !== "project";
      scopes.set(path, userOnly ? "user" : "project");
    }
    return [...scopes].map(([path, scope]): DialectFile => ({ path, scope, mustExist: true }));
  },
  compatSwitch: false,
  read(text, ctx) {
    const parsed = parseYamlText(text, ctx.path);
    if ("problems" in parsed) return { hooks: [], problems: parsed.problems };
    return readCagentHooks(parsed.value, ctx);
  },
  ...createToolMapper(CAGENT_TOOLS, { absolutePaths: false }),
  eventName: cagentEventName,
  eventFromName: cagentEventFromName,
  stdinObject: (payload, shaped) =>
    nativeStdinObject(payload, shaped, cagentEventName(payload.hook_event_name)),
  matcherStyle: "anchored",
  matchesNonToolEvents: true,
  defaultTimeoutSec: nativeDefaultTimeoutSec,
  timeoutUnit: "s",
  exitTable: nativeExitTable,
  parsesJson: true,
});
