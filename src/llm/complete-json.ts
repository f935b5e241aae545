/**
 * One-shot JSON-mode completion for prompt hooks and harvest: consumes the stream and returns
 * the text, or an error value. Never throws.
 */
import type { ChatClient, ChatRequest, Usage } from "./types.js";

/** The result of `completeJson`. */
export type CompleteJsonResult =
  | { ok: true; text: string; usage: Usage | null }
  | { ok: false; error: string };

/** Runs `req` in JSON mode (`response_format: json_object`) and collects the final text. */
export async function completeJson(
  client: ChatClient,
  req: ChatRequest,
): Promise<CompleteJsonResult> {
  try {
    for await (const event of client.stream({ ...req, responseFormat: "json_object" })) {
      if (event.type === "error") return { ok: false, error: event.message };
      if (event.type === "done") {
        const text = event.message.content ?? "";
        if (event.finishReason === "length") {
          return { ok: false, error: "the answer was cut off at the token limit" };
        }
        return { ok: true, text, usage: event.usage };
      }
    }
    return { ok: false, error: "the stream ended without an answer" };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}
