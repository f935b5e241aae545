/**
 * Turns a validated script reply (faults included) into the concrete content the server streams:
 * reasoning, text, tool calls with their exact argument text, and the finish reason.
 */
import type { Reply } from "./script.js";

/** A tool call ready to send: the argument text is exactly what goes on the wire. */
export interface ResolvedToolCall {
  id: string | undefined;
  name: string;
  arguments: string;
}

/** What the server sends for one reply. */
export interface ResolvedReply {
  /**
   * Thinking mode: the reply streams `reasoning_content` (even when empty, as DeepSeek V4 does
   * with thinking on), and its tool calls' reasoning must be passed back in later requests.
   * True when the script gives `reasoning` (even "") or a fault puts reasoning there.
   */
  thinking: boolean;
  reasoning: string;
  text: string;
  toolCalls: ResolvedToolCall[];
  finishReason:
    | "stop"
    | "length"
    | "tool_calls"
    | "content_filter"
    | "insufficient_system_resource";
  /** Characters per streamed text/reasoning delta, when the reply or fault asks for it. */
  chunkChars: number | undefined;
}

/** Default reasoning for `reasoning_exhausts_budget`: long enough to look like a budget burn. */
const BURNT_REASONING =
  "Let me think about this carefully. First I should look at the files, then consider each option in turn. ".repeat(
    8,
  );

/** Expands a reply and its fault into concrete content. */
export function resolveReply(reply: Reply): ResolvedReply {
  let reasoning = reply.reasoning ?? "";
  let text = reply.text ?? "";
  let chunkChars = reply.chunkChars;
  let faultFinish: ResolvedReply["finishReason"] | undefined;
  const toolCalls: ResolvedToolCall[] = (reply.toolCalls ?? []).map((c) => ({
    id: c.id,
    name: c.name,
    arguments: c.rawArguments ?? JSON.stringify(c.arguments ?? {}),
  }));
  const fault = reply.fault;
  switch (fault?.type) {
    case "dsml_leak": {
      const markup = fault.style === "dsml" ? dsmlMarkup(fault.calls) : v3Markup(fault.calls);
      if (fault.in === "content") text += markup;
      else reasoning += markup;
      // Small deltas so the markers themselves are split across chunks, as the real API does.
      chunkChars ??= 5;
      break;
    }
    case "truncated_arguments": {
      const full = JSON.stringify(fault.arguments);
      const keep = fault.keepChars ?? Math.floor(full.length / 2);
      toolCalls.push({ id: undefined, name: fault.name, arguments: full.slice(0, keep) });
      faultFinish = "length";
      break;
    }
    case "json_prefix":
      toolCalls.push({
        id: undefined,
        name: fault.name,
        arguments: `json\n${JSON.stringify(fault.arguments)}`,
      });
      break;
    case "trailing_garbage":
      toolCalls.push({
        id: undefined,
        name: fault.name,
        arguments: JSON.stringify(fault.arguments) + fault.garbage,
      });
      break;
    case "empty_arguments":
      toolCalls.push({ id: undefined, name: fault.name, arguments: "{}" });
      break;
    case "reasoning_exhausts_budget":
      reasoning += fault.reasoning ?? BURNT_REASONING;
      faultFinish = "length";
      break;
    case undefined:
      break;
  }
  const finishReason =
    reply.finishReason ?? faultFinish ?? (toolCalls.length > 0 ? "tool_calls" : "stop");
  const thinking = reply.reasoning !== undefined || reasoning !== "";
  return { thinking, reasoning, text, toolCalls, finishReason, chunkChars };
}

/** DeepSeek V3.2 DSML tool-call markup (full-width bars), as leaked into text. */
export function dsmlMarkup(
  calls: ReadonlyArray<{ name: string; arguments: Record<string, unknown> }>,
): string {
  const bar = "｜";
  let out = `<${bar}DSML${bar}function_calls>\n`;
  for (const call of calls) {
    out += `<${bar}DSML${bar}invoke name="${call.name}">\n`;
    for (const [key, value] of Object.entries(call.arguments)) {
      const isString = typeof value === "string";
      const body = isString ? value : JSON.stringify(value);
      out += `<${bar}DSML${bar}parameter name="${key}" string="${isString}">${body}</${bar}DSML${bar}parameter>\n`;
    }
    out += `</${bar}DSML${bar}invoke>\n`;
  }
  return `${out}</${bar}DSML${bar}function_calls>`;
}

/** DeepSeek V3 tool-call markup (`<｜tool▁calls▁begin｜>`), as leaked into text. */
export function v3Markup(
  calls: ReadonlyArray<{ name: string; arguments: Record<string, unknown> }>,
): string {
  let out = "<｜tool▁calls▁begin｜>";
  for (const call of calls) {
    out += `<｜tool▁call▁begin｜>function<｜tool▁sep｜>${call.name}\n\`\`\`json\n${JSON.stringify(call.arguments)}\n\`\`\`<｜tool▁call▁end｜>`;
  }
  return `${out}<｜tool▁calls▁end｜>`;
}
