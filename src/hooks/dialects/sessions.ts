/**
 * The per-session states of every dialect that keeps one (`Dialect.sessionState`), made once
 * per engine and fed every firing, so the engine need not know what any dialect remembers.
 */
import type { AnyEventPayload } from "../events.js";
import type { Dialect, DialectSessionState, SessionShaped } from "./types.js";

export class DialectSessions {
  private readonly states = new Map<string, DialectSessionState>();

  constructor(dialects: readonly Dialect[]) {
    for (const d of dialects) {
      const state = d.sessionState?.();
      if (state !== undefined) this.states.set(d.name, state);
    }
  }

  /** Tells every state about a firing, whichever dialects' hooks it runs. */
  observe(payload: AnyEventPayload): void {
    for (const state of this.states.values()) state.observe(payload);
  }

  /** What `dialect`'s state adds to the shaped payload (nothing for a dialect without one). */
  shaped(dialect: Dialect, payload: AnyEventPayload): SessionShaped {
    return this.states.get(dialect.name)?.shaped(payload) ?? {};
  }
}
