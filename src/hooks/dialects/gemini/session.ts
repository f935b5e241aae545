/**
 * Gemini CLI's AfterAgent repeats the prompt it answers and names the answer `prompt_response`:
 * every answer since that prompt when a Stop hook made the agent go on (measured, 0.61; read by
 * `stdinObject` in index.ts).
 */
import type { AnyEventPayload } from "../../events.js";
import type { DialectSessionState } from "../types.js";

export function geminiSessionState(): DialectSessionState {
  /** The last prompt submitted (UserPromptSubmit's `prompt`). */
  let lastPrompt: string | undefined;
  /** The answers that ended at a Stop since that prompt. */
  let answers: string[] = [];
  return {
    observe(payload: AnyEventPayload) {
      if (payload.hook_event_name === "UserPromptSubmit") {
        const prompt = (payload as { prompt?: unknown }).prompt;
        if (typeof prompt === "string") lastPrompt = prompt;
        answers = [];
      }
      if (payload.hook_event_name === "Stop") {
        const answer = (payload as { last_assistant_message?: unknown }).last_assistant_message;
        if (typeof answer === "string") answers = [...answers, answer];
      }
    },
    shaped: (payload) => ({
      ...(lastPrompt !== undefined ? { prompt: lastPrompt } : {}),
      ...(payload.hook_event_name === "Stop" ? { answers } : {}),
    }),
  };
}
