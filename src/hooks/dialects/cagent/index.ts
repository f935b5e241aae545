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

/** Keel tool → cagent tool (docs/hooks.md "Tool names and input fields"). */
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
    // A file named by user-level settings is user-level when it lies outside the project,
    // wherever else it is named: a project naming the user's own guard file must not turn it
    // into an untrusted project hook (and so switch it off). A file only a project names is a
    // project file (it needs trust), wherever it lies.
    const scopes = new Map<string, SourceScope>();
    for (const name of settings.cagent.user) {
      const path = expandHome(name, paths);
      scopes.set(path, isInside(paths.projectDir, path) ? "project" : "user");
    }
    for (const name of settings.cagent.project) {
      const path = expandHome(name, paths);
      if (!scopes.has(path)) scopes.set(path, "project");
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
  // docker-agent runs hook commands with `$SHELL -c`, falling back to /bin/sh.
  defaultShell: (env) => (env.SHELL && env.SHELL !== "" ? env.SHELL : undefined),
  matcherStyle: "anchored",
  matchesNonToolEvents: true,
  defaultTimeoutSec: nativeDefaultTimeoutSec,
  timeoutUnit: "s",
  exitTable: nativeExitTable,
  parsesJson: true,
});
