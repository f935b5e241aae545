import type { ChatRequest, StreamEvent } from "../../src/llm/types.js";

/** Collects every event of a stream. */
export async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const e of stream) events.push(e);
  return events;
}

/** A request with one user message. */
export function userRequest(content: string, extra: Partial<ChatRequest> = {}): ChatRequest {
  return {
    model: "deepseek-v4-flash",
    messages: [JSON.stringify({ role: "user", content })],
    ...extra,
  };
}

/** The last event, narrowed to `done` (throws a readable error otherwise). */
export function doneOf(events: StreamEvent[]): Extract<StreamEvent, { type: "done" }> {
  const last = events[events.length - 1];
  if (last?.type !== "done") throw new Error(`expected done, got ${JSON.stringify(last)}`);
  return last;
}

/** The last event, narrowed to `error`. */
export function errorOf(events: StreamEvent[]): Extract<StreamEvent, { type: "error" }> {
  const last = events[events.length - 1];
  if (last?.type !== "error") throw new Error(`expected error, got ${JSON.stringify(last)}`);
  return last;
}

/** A sleep that records the delays asked for and returns at once. */
export function recordingSleep(): { delays: number[]; sleep: (ms: number) => Promise<void> } {
  const delays: number[] = [];
  return {
    delays,
    sleep: async (ms: number) => {
      delays.push(ms);
    },
  };
}
