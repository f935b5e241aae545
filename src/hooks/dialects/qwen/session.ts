/**
 * Qwen Code 0.24 numbers a session's user prompts in its prompt ids:
 * `<session_id>########<n>`, `n` from 0 for the first prompt, the same id on every event of that
 * prompt (tool calls, a Stop hook's continuation). Keel's prompt ids are opaque, so the Qwen
 * dialect numbers them in the order they appear and hands the number on as `turn` (1 for the
 * first; payload.ts and env.ts write Qwen's form from it).
 */
import type { AnyEventPayload } from "../../events.js";
import type { DialectSessionState } from "../types.js";

export function qwenSessionState(): DialectSessionState {
  /** Keel prompt id → its number in the session, from 1. */
  const numbers = new Map<string, number>();
  const idOf = (payload: AnyEventPayload) => (payload as { prompt_id?: unknown }).prompt_id;
  return {
    observe(payload) {
      const id = idOf(payload);
      if (typeof id === "string" && !numbers.has(id)) numbers.set(id, numbers.size + 1);
    },
    shaped(payload) {
      const id = idOf(payload);
      const turn = typeof id === "string" ? numbers.get(id) : undefined;
      return turn === undefined ? {} : { turn };
    },
  };
}

/** Qwen Code's prompt id for the `turn`-th prompt of session `sessionId`. */
export function qwenPromptId(sessionId: string, turn: number): string {
  return `${sessionId}########${turn - 1}`;
}
