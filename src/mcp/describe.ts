/** One-line descriptions of MCP server definitions (secrets in env and headers never shown). */
import type { McpServerConfig } from "./config.js";

/** `stdio: cmd args…` or `http: url`; env and header values are left out (they hold tokens). */
export function describeServer(config: McpServerConfig): string {
  if (config.type === "stdio") {
    const env = Object.keys(config.env);
    const envNote = env.length > 0 ? ` [env: ${env.join(", ")}]` : "";
    return `stdio: ${[config.command, ...config.args].join(" ")}${envNote}`;
  }
  const headers = Object.keys(config.headers);
  return `${config.type}: ${config.url}${headers.length > 0 ? ` [headers: ${headers.join(", ")}]` : ""}`;
}
