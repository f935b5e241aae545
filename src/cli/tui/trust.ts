/** Which project hooks would run if trusted, for the start-up trust prompt. */
import { homedir } from "node:os";
import { handlerSummary } from "../commands/hooks-render.js";
import { displayPath } from "../format/text.js";
import type { TuiHooks } from "./backend.js";
import type { UntrustedHook } from "./components/trust-prompt.js";

/** The untrusted hooks of the current listing, or null when there is nothing to ask. */
export function untrustedHooks(hooks: TuiHooks, projectDir: string): UntrustedHook[] | null {
  const listing = hooks.listing();
  if (!listing.projectTrust.hasProjectHooks || listing.projectTrust.trusted) return null;
  const list = listing.hooks
    .filter((h) => !h.trusted)
    .map((h) => ({
      event: h.event,
      command: handlerSummary(h.handler),
      source: displayPath(h.source.path, { base: projectDir, home: homedir() }),
    }));
  return list.length > 0 ? list : null;
}
