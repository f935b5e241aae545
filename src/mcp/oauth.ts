/**
 * The OAuth entry points other layers use. `loginMcpServer` loads the flow (and with it the MCP
 * SDK) on first call: commands that never log in do not pay for it.
 */
import type { LoginOptions, LoginResult } from "./oauth-login.js";

export type { LoginOptions, LoginResult } from "./oauth-login.js";

/** Default wait for the browser to come back (`keel mcp login --timeout`). */
export const DEFAULT_LOGIN_TIMEOUT_MS = 5 * 60_000;

/** Runs `keel mcp login`'s authorization (src/mcp/oauth-login.ts). */
export async function loginMcpServer(o: LoginOptions): Promise<LoginResult> {
  const { loginServer } = await import("./oauth-login.js");
  return loginServer(o);
}
