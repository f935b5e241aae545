/** A TUI session backend on a test world: its homes, project and simulator. */
import {
  createPermissionBridge,
  type PermissionBridge,
} from "../../../src/cli/tui/permission-bridge.js";
import { createSessionBackend } from "../../../src/cli/tui/session-backend.js";
import { createChatClient } from "../../../src/llm/client.js";
import type { Telemetry } from "../../../src/telemetry/index.js";
import type { World } from "../../agent/harness.js";

export function backendFor(
  w: World,
  permissions: PermissionBridge = createPermissionBridge(),
  telemetry: Telemetry | null = null,
) {
  return createSessionBackend({
    keelHome: w.home,
    projectDir: w.project,
    model: "deepseek-v4-flash",
    client: createChatClient({ baseUrl: w.sim.url, apiKey: "sk-test" }),
    permissions,
    telemetry,
  });
}
