/** Which project hooks would run if trusted, for the start-up trust prompt. */
import { homedir } from "node:os";
import type { AgentMcp } from "../../agent/index.js";
import { handlerSummary } from "../commands/hooks/render.js";
import { displayPath } from "../format/text.js";
import type { TuiHooks } from "./backend.js";
import type { UntrustedHook } from "./components/trust-prompt.js";

/**
 * The untrusted hooks of the current listing, and the project MCP servers not started for lack
 * of trust (both are trusted together), or null when there is nothing to ask.
 */
export function untrustedHooks(
  hooks: TuiHooks,
  projectDir: string,
  mcp?: AgentMcp,
): UntrustedHook[] | null {
  const listing = hooks.listing();
  const where = (path: string) => displayPath(path, { base: projectDir, home: homedir() });
  const hookRows =
    !listing.projectTrust.hasProjectHooks || listing.projectTrust.trusted
      ? []
      : listing.hooks
          .filter((h) => !h.trusted)
          .map((h) => ({
            kind: "hook" as const,
            event: h.event,
            command: handlerSummary(h.handler),
            source: where(h.source.path),
          }));
  const serverRows = (mcp?.statuses() ?? [])
    .filter((s) => s.state === "untrusted")
    .map((s) => ({
      kind: "mcp" as const,
      event: `MCP ${s.name}`,
      command: s.definition,
      source: where(s.file),
    }));
  const list = [...hookRows, ...serverRows];
  return list.length > 0 ? list : null;
}
