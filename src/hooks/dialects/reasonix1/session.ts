/** Reasonix 1.x numbers the user's prompts: `turn` on UserPromptSubmit and Stop is the
 *  prompt's number in the session, 1 for the first (read by `reasonix1StdinObject`). */
import type { AnyEventPayload } from "../../events.js";
import type { DialectSessionState } from "../types.js";

export function reasonix1SessionState(): DialectSessionState {
  /** UserPromptSubmit firings so far. */
  let turn = 0;
  return {
    observe(payload: AnyEventPayload) {
      if (payload.hook_event_name === "UserPromptSubmit") turn += 1;
    },
    shaped: () => (turn > 0 ? { turn } : {}),
  };
}
