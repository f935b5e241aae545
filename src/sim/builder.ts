/**
 * A fluent, typed builder for simulator scripts, producing exactly the JSON a script file holds:
 * `script().reply((r) => r.reasoning("…").tool("shell", { command: "ls" })).text("done")`.
 */
import type { ScriptFault, ScriptFile, ScriptReply, ScriptToolCall } from "./script.js";

type Args = Record<string, unknown>;
type FinishReason = NonNullable<ScriptReply["finishReason"]>;

/** Builds one reply. Text and reasoning calls append; every method returns the builder. */
export class ReplyBuilder {
  private readonly r: ScriptReply = {};

  /** Appends visible text. */
  text(text: string): this {
    this.r.text = (this.r.text ?? "") + text;
    return this;
  }

  /** Appends reasoning (`reasoning_content`), streamed before the text. */
  reasoning(text: string): this {
    this.r.reasoning = (this.r.reasoning ?? "") + text;
    return this;
  }

  /** Adds a tool call with an arguments object. */
  tool(name: string, args: Args = {}, options: { id?: string } = {}): this {
    return this.call({ name, arguments: args, ...options });
  }

  /** Adds a tool call whose argument text is sent exactly as given. */
  toolRaw(name: string, rawArguments: string, options: { id?: string } = {}): this {
    return this.call({ name, rawArguments, ...options });
  }

  /** Overrides the finish reason. */
  finish(reason: FinishReason): this {
    this.r.finishReason = reason;
    return this;
  }

  /** Restricts which request may take this reply. */
  when(when: NonNullable<ScriptReply["when"]>): this {
    this.r.when = { ...this.r.when, ...when };
    return this;
  }

  /** Makes this reply an HTTP error with DeepSeek's error body. */
  error(
    status: number,
    options: { message?: string; retryAfter?: number; type?: string } = {},
  ): this {
    this.r.error = { status, ...options };
    return this;
  }

  /** Uses this reply for `n` consecutive requests. */
  repeat(n: number): this {
    this.r.repeat = n;
    return this;
  }

  /** Delays before the first byte and between chunks. */
  latency(latency: NonNullable<ScriptReply["latency"]>): this {
    this.r.latency = { ...this.r.latency, ...latency };
    return this;
  }

  /** Sends `n` `: keep-alive` comments before the first chunk. */
  keepAlive(n: number): this {
    this.r.keepAlive = n;
    return this;
  }

  /** Characters per streamed text/reasoning delta. */
  chunkChars(n: number): this {
    this.r.chunkChars = n;
    return this;
  }

  /** Drops the connection after `n` data chunks. */
  disconnectAfter(n: number): this {
    this.r.disconnectAfterChunks = n;
    return this;
  }

  /** Overrides the counted completion/reasoning tokens. */
  usage(usage: NonNullable<ScriptReply["usage"]>): this {
    this.r.usage = usage;
    return this;
  }

  /** Sets a fault (see the helpers below for each kind). */
  fault(fault: ScriptFault): this {
    this.r.fault = fault;
    return this;
  }

  /** Tool calls leaked as DSML (or V3) markup into the text or reasoning, split across chunks. */
  leakDsml(
    calls: { name: string; arguments?: Args } | Array<{ name: string; arguments?: Args }>,
    options: { in?: "content" | "reasoning"; style?: "dsml" | "v3" } = {},
  ): this {
    return this.fault({
      type: "dsml_leak",
      calls: Array.isArray(calls) ? calls : [calls],
      ...options,
    });
  }

  /** A tool call whose arguments are cut off (finish_reason `length`). */
  truncatedArgs(name: string, args: Args, keepChars?: number): this {
    return this.fault({
      type: "truncated_arguments",
      name,
      arguments: args,
      ...(keepChars === undefined ? {} : { keepChars }),
    });
  }

  /** A tool call whose arguments start with `json\n`. */
  jsonPrefix(name: string, args: Args): this {
    return this.fault({ type: "json_prefix", name, arguments: args });
  }

  /** A tool call whose arguments end with garbage after the JSON. */
  trailingGarbage(name: string, args: Args, garbage?: string): this {
    return this.fault({
      type: "trailing_garbage",
      name,
      arguments: args,
      ...(garbage === undefined ? {} : { garbage }),
    });
  }

  /** A tool call with `{}` arguments. */
  emptyArgs(name: string): this {
    return this.fault({ type: "empty_arguments", name });
  }

  /** Reasoning that uses the whole budget: no text, no call, finish_reason `length`. */
  reasoningExhaustsBudget(reasoning?: string): this {
    return this.fault({
      type: "reasoning_exhausts_budget",
      ...(reasoning === undefined ? {} : { reasoning }),
    });
  }

  /** The reply as script JSON. */
  toJSON(): ScriptReply {
    return structuredClone(this.r);
  }

  private call(call: ScriptToolCall): this {
    this.r.toolCalls = [...(this.r.toolCalls ?? []), call];
    return this;
  }
}

/** Starts a reply. */
export function reply(): ReplyBuilder {
  return new ReplyBuilder();
}

/** What `ScriptBuilder.reply` accepts. */
export type ReplyInput =
  | ReplyBuilder
  | ScriptReply
  | ((r: ReplyBuilder) => ReplyBuilder | undefined);

/** Builds a script: replies in the order requests will consume them. */
export class ScriptBuilder {
  private readonly replies: ScriptReply[] = [];
  private readonly defaults: Omit<ScriptFile, "replies"> = {};

  /** Adds a reply (a builder, a callback that configures one, or plain script JSON). */
  reply(input: ReplyInput): this {
    this.replies.push(toReply(input));
    return this;
  }

  /** Adds a plain text reply. */
  text(text: string): this {
    return this.reply(reply().text(text));
  }

  /** Adds a reply holding one tool call. */
  tool(name: string, args: Args = {}): this {
    return this.reply(reply().tool(name, args));
  }

  /** Adds an HTTP error reply, `times` times in a row. */
  error(
    status: number,
    options: { message?: string; retryAfter?: number; times?: number } = {},
  ): this {
    const { times, ...rest } = options;
    const r = reply().error(status, rest);
    return this.reply(times === undefined ? r : r.repeat(times));
  }

  /** Default latency for every reply. */
  latency(latency: NonNullable<ScriptFile["latency"]>): this {
    this.defaults.latency = latency;
    return this;
  }

  /**
   * The model's context window in tokens: a longer prompt is refused with DeepSeek's 400
   * "maximum context length" error (no reply is consumed).
   */
  contextTokens(n: number): this {
    this.defaults.contextTokens = n;
    return this;
  }

  /** Default characters per streamed delta. */
  chunkChars(n: number): this {
    this.defaults.chunkChars = n;
    return this;
  }

  /** The script as JSON (what a script file would hold). */
  toJSON(): ScriptFile {
    return structuredClone({ ...this.defaults, replies: this.replies });
  }

  /** Alias of `toJSON`. */
  build(): ScriptFile {
    return this.toJSON();
  }
}

/** Starts a script, optionally with replies. */
export function script(...replies: ReplyInput[]): ScriptBuilder {
  const builder = new ScriptBuilder();
  for (const r of replies) builder.reply(r);
  return builder;
}

/** Normalizes a reply input to script JSON. */
export function toReply(input: ReplyInput): ScriptReply {
  if (input instanceof ReplyBuilder) return input.toJSON();
  if (typeof input === "function") {
    const builder = new ReplyBuilder();
    return (input(builder) ?? builder).toJSON();
  }
  return structuredClone(input);
}
