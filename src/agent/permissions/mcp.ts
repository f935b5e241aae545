/**
 * What the permission mode says about an MCP tool (kept apart from the built-in rules): a tool the
 * server annotates `readOnlyHint` runs in every mode (and is all plan mode allows); the others ask,
 * unless a `permissions.allow` rule in settings names the tool or its server.
 */
import type { McpToolInfo } from "../../mcp/index.js";
import type { AnyTool } from "../../tools/index.js";
import type { PermissionMode, PermissionVerdict } from "./modes.js";

/** The verdict for an MCP tool, or undefined for any other tool. */
export function mcpVerdict(mode: PermissionMode, tool: AnyTool): PermissionVerdict | undefined {
  const info = (tool as { mcp?: McpToolInfo }).mcp;
  if (info === undefined) return undefined;
  if (mode === "bypassPermissions" || info.readOnly) return { kind: "allow" };
  if (mode === "plan") {
    return {
      kind: "refuse",
      reason: `${tool.name} is not allowed in plan mode: only MCP tools their server marks read-only run while planning. Describe the change instead.`,
    };
  }
  if (info.allowed) return { kind: "allow" };
  return {
    kind: "ask",
    reason: `MCP tool ${info.tool} of server ${info.server} is not marked read-only`,
  };
}
