/**
 * MCP elicitation in the TUI, through the permission prompt the TUI already has: the server's
 * message and the fields it asks for are shown; "allow" accepts with the defaults the server
 * offered (filled into every field that has one), "deny" declines. Typing free-form field values
 * is not supported yet: a request whose required fields have no default can only be declined.
 */
import type { ElicitationAnswer, ElicitationHandler } from "../../mcp/index.js";
import type { PermissionBridge } from "./permission-bridge.js";

/** The defaults a form schema offers, and the required fields that have none. */
export function formDefaults(schema: Record<string, unknown> | undefined): {
  content: Record<string, unknown>;
  missing: string[];
} {
  const props = (schema?.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = Array.isArray(schema?.required) ? (schema.required as string[]) : [];
  const content: Record<string, unknown> = {};
  for (const [key, prop] of Object.entries(props)) {
    if (prop && "default" in prop) content[key] = prop.default;
  }
  return { content, missing: required.filter((k) => !(k in content)) };
}

/** An elicitation handler that asks through the TUI's permission prompt. */
export function tuiElicitation(permissions: PermissionBridge): ElicitationHandler {
  return async (req, signal): Promise<ElicitationAnswer> => {
    const { content, missing } = formDefaults(req.requestedSchema);
    const fields = Object.keys((req.requestedSchema?.properties ?? {}) as object);
    const reason =
      missing.length > 0
        ? `it needs ${missing.join(", ")} (no default; typing answers is not supported yet): deny declines`
        : `allow sends the server's defaults${fields.length > 0 ? ` for ${fields.join(", ")}` : ""}; deny declines`;
    const answer = await permissions.ask(
      {
        toolName: `MCP server ${req.server}`,
        input: content,
        summary: `MCP server ${req.server} asks: ${req.message}${req.url ? ` (${req.url})` : ""}`,
        reason,
      },
      { signal },
    );
    if (answer === "deny" || missing.length > 0) return { action: "decline" };
    return { action: "accept", content };
  };
}
