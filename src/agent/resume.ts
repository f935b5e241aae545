/**
 * Resuming a session whose last turn was cut off (crash, kill): the stored bytes stay exactly
 * as they are; what is missing for a valid conversation is appended as new messages.
 */
import type { AppendOnlyLog } from "./log.js";

/** Appends an "interrupted" result for every tool call of the last assistant message left unanswered. */
export function healDanglingCalls(log: AppendOnlyLog): number {
  const answered = new Set<string>();
  for (let i = log.length - 1; i >= 0; i--) {
    const msg = log.at(i);
    if (msg === null) return 0;
    if (msg.role === "tool" && msg.tool_call_id !== undefined) {
      answered.add(msg.tool_call_id);
      continue;
    }
    if (msg.role !== "assistant") return 0;
    let added = 0;
    for (const call of msg.tool_calls ?? []) {
      if (answered.has(call.id)) continue;
      log.append({
        role: "tool",
        content: "The session was interrupted while this call was running; its result is unknown.",
        tool_call_id: call.id,
      });
      added += 1;
    }
    return added;
  }
  return 0;
}
