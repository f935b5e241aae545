/**
 * The label of a prompt's "allow always" answer, from the same function that decides what the
 * answer remembers (allowScope in agent/permissions.ts): for a shell call the exact command, for
 * a file tool every later call of it on any file. The tool's kind and primary argument come from
 * the session's own tools, as the agent gets them; a tool not among them (an MCP tool) is
 * remembered by name, as the agent does for every tool but shell.
 */
import type { PermissionPrompt } from "../../agent/events.js";
import { allowScope } from "../../agent/permissions.js";
import type { AnyTool } from "../../tools/registry.js";

/** What "allow always" allows for `request`, in words. */
export function alwaysLabel(request: PermissionPrompt, tools: readonly AnyTool[]): string {
  const tool = tools.find((t) => t.name === request.toolName);
  let primary: string | undefined;
  try {
    primary = tool?.primaryArg(request.input);
  } catch {
    primary = undefined;
  }
  return allowScope(request.toolName, tool?.kind ?? "write", primary).label;
}
