/**
 * MCP elicitation in the TUI: a server's question is shown as a form in the place of the
 * permission prompt (components/elicitation-form.tsx), field by field with the checks of
 * elicit-form.ts. Accept sends what the user entered, decline and cancel say so; a request with
 * a required field of a shape a form cannot take can only be declined.
 */
import type { ElicitationAnswer, ElicitationHandler } from "../../mcp/index.js";
import { parseForm } from "./elicit-form.js";
import type { PermissionBridge } from "./permission-bridge.js";

/** An elicitation handler that asks through the TUI's question area. */
export function tuiElicitation(permissions: PermissionBridge): ElicitationHandler {
  return async (req, signal): Promise<ElicitationAnswer> => {
    const form =
      req.mode === "url" ? { ok: true as const, fields: [] } : parseForm(req.requestedSchema);
    return permissions.askForm(
      {
        server: req.server,
        message: req.message,
        ...(req.url !== undefined ? { url: req.url } : {}),
        fields: form.fields,
        ...(form.ok ? {} : { unusable: `${form.reason}: it can only be declined` }),
      },
      { signal },
    );
  };
}
