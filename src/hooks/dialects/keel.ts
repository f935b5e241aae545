/** The native dialect: Keel tool names and fields, Claude-compatible protocol, anchored matchers. */

import { nativeDefaultTimeoutSec, nativeStdinObject } from "./native.js";
import { createToolMapper } from "./tool-map.js";
import type { Dialect } from "./types.js";

const tools = createToolMapper({}, { absolutePaths: false });

/** Keel's own dialect (`.keel/settings*.json`, `~/.keel/settings.json`). */
export const keelDialect: Dialect = {
  name: "keel",
  ...tools,
  keelToolName: (name) => name,
  eventName: (event) => event,
  stdinObject: (payload, shaped) => nativeStdinObject(payload, shaped, payload.hook_event_name),
  matcherStyle: "anchored",
  matchesNonToolEvents: true,
  defaultTimeoutSec: nativeDefaultTimeoutSec,
  exitTable: "native",
  parsesJson: true,
};
