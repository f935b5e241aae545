/**
 * Folds parsed stream chunks into events and, at the end, the assistant message: text and
 * reasoning concatenated, tool calls assembled by index from id/name/argument fragments.
 */
import { normalizeFinishReason, normalizeUsage, type WireChunk } from "./chunk.js";
import {
  type ChatMessage,
  type FinishReason,
  SIMULATOR_FINGERPRINT,
  type StreamEvent,
  type ToolCall,
  type Usage,
} from "./types.js";

interface PartialCall {
  id: string;
  name: string;
  args: string;
}

/** Accumulates one streamed completion. */
export class StreamAssembler {
  private text = "";
  private reasoning = "";
  /** Thinking mode announces itself with `reasoning_content` (often "" at first): keep even an empty one. */
  private thinking = false;
  private readonly calls = new Map<number, PartialCall>();
  private usage: Usage | null = null;
  /** Keel's simulator answered (its fingerprint was on a chunk). */
  private simulated = false;
  /** The finish reason once a chunk carried one. */
  finishReason: FinishReason | null = null;

  /** Applies one chunk; returns the delta events it produced. */
  apply(chunk: WireChunk): StreamEvent[] {
    const events: StreamEvent[] = [];
    if (chunk.system_fingerprint === SIMULATOR_FINGERPRINT) this.simulated = true;
    if (chunk.usage) this.usage = normalizeUsage(chunk.usage);
    const choice = chunk.choices?.[0];
    if (!choice) return events;
    const delta = choice.delta;
    if (typeof delta?.reasoning_content === "string") this.thinking = true;
    if (delta?.reasoning_content) {
      this.reasoning += delta.reasoning_content;
      events.push({ type: "reasoning_delta", text: delta.reasoning_content });
    }
    if (delta?.content) {
      this.text += delta.content;
      events.push({ type: "text_delta", text: delta.content });
    }
    for (const [position, tc] of (delta?.tool_calls ?? []).entries()) {
      const index = tc.index ?? position;
      const call = this.calls.get(index) ?? { id: "", name: "", args: "" };
      this.calls.set(index, call);
      const event: StreamEvent & { type: "tool_call_delta" } = {
        type: "tool_call_delta",
        index,
        argumentsDelta: tc.function?.arguments ?? "",
      };
      if (tc.id) {
        call.id = tc.id;
        event.id = tc.id;
      }
      if (tc.function?.name) {
        call.name += tc.function.name;
        event.name = tc.function.name;
      }
      call.args += event.argumentsDelta;
      events.push(event);
    }
    if (choice.finish_reason) this.finishReason = normalizeFinishReason(choice.finish_reason);
    return events;
  }

  /** The final `done` event. */
  done(): StreamEvent {
    const toolCalls: ToolCall[] = [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, c]) => ({
        id: c.id || `call_${index}`,
        type: "function",
        function: { name: c.name, arguments: c.args },
      }));
    const message: ChatMessage = { role: "assistant", content: this.text };
    // DeepSeek V4 rejects a thinking-mode tool turn passed back without reasoning_content, even
    // when the reasoning was empty, so an empty one is kept as "".
    if (this.thinking) message.reasoning_content = this.reasoning;
    if (toolCalls.length > 0) message.tool_calls = toolCalls;
    return {
      type: "done",
      message,
      finishReason: this.finishReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
      usage: this.usage && this.simulated ? { ...this.usage, simulated: true } : this.usage,
    };
  }
}
