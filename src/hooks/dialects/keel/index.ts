/** The native dialect: Keel tool names and fields, Claude-compatible protocol, anchored matchers. */
import { childPath } from "../../../base/index.js";
import { readJsonHooksFile } from "../../config/parse.js";
import { readNativeHooks } from "../../config/read-native.js";
import { keelSettingsSchema } from "../../config/schema.js";
import { nativeExitTable } from "../shared/exit-native.js";
import { nativeDefaultTimeoutSec, nativeEvents, nativeStdinObject } from "../shared/native.js";
import { createToolMapper } from "../shared/tool-map.js";
import { defineDialect } from "../types.js";

/** Keel's own dialect (`~/.keel/settings.json`, `.keel/settings*.json`). */
export const keelDialect = defineDialect({
  name: "keel",
  label: "Keel",
  files: (paths) => [
    { path: childPath(paths.keelHome, "settings.json"), scope: "user" },
    { path: childPath(paths.projectDir, ".keel", "settings.json"), scope: "project" },
    { path: childPath(paths.projectDir, ".keel", "settings.local.json"), scope: "local" },
  ],
  compatSwitch: false,
  honoursDisableAll: true,
  read: (text, ctx) =>
    readJsonHooksFile(text, ctx, keelSettingsSchema(), (hooks, c) => readNativeHooks(hooks, c)),
  ...createToolMapper({}, { absolutePaths: false }),
  keelToolName: (name) => name,
  ...nativeEvents,
  stdinObject: (payload, shaped) => nativeStdinObject(payload, shaped, payload.hook_event_name),
  matcherStyle: "anchored",
  matchesNonToolEvents: true,
  defaultTimeoutSec: nativeDefaultTimeoutSec,
  timeoutUnit: "s",
  exitTable: nativeExitTable,
  parsesJson: true,
});
