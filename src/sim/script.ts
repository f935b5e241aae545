/**
 * The simulator's script format: a list of replies consumed in order (JSON file or built with the
 * fluent builder), validated with zod so a bad file is reported by path and field.
 */
import { readFile } from "node:fs/promises";
import { z } from "zod";

const args = z.record(z.string(), z.unknown());
const name = z.string().min(1);

/** A tool call in a reply: an arguments object, or raw argument text sent as-is. */
export const scriptToolCall = z
  .strictObject({
    name,
    arguments: args.optional(),
    rawArguments: z.string().optional(),
    id: z.string().min(1).optional(),
  })
  .refine((c) => c.arguments === undefined || c.rawArguments === undefined, {
    message: "give either arguments or rawArguments, not both",
  });

const callSpec = z.strictObject({ name, arguments: args.default({}) });

/** The model faults of reference/deepseek-api.md, expanded into reply content by the server. */
export const scriptFault = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("dsml_leak"),
    /** Where the markup leaks: the visible text or the reasoning. */
    in: z.enum(["content", "reasoning"]).default("content"),
    /** `dsml` = `<｜DSML｜function_calls>` markup; `v3` = `<｜tool▁calls▁begin｜>` markup. */
    style: z.enum(["dsml", "v3"]).default("dsml"),
    calls: z.array(callSpec).min(1),
  }),
  z.strictObject({
    type: z.literal("truncated_arguments"),
    name,
    arguments: args,
    /** Characters of the argument JSON kept (default: half). */
    keepChars: z.int().nonnegative().optional(),
  }),
  z.strictObject({ type: z.literal("json_prefix"), name, arguments: args }),
  z.strictObject({
    type: z.literal("trailing_garbage"),
    name,
    arguments: args,
    garbage: z.string().min(1).default("}"),
  }),
  z.strictObject({ type: z.literal("empty_arguments"), name }),
  z.strictObject({
    type: z.literal("reasoning_exhausts_budget"),
    reasoning: z.string().optional(),
  }),
]);

/** When a reply may be used (every given field must hold); replies without it match anything. */
export const scriptWhen = z.strictObject({
  lastUserContains: z.string().optional(),
  lastMessageContains: z.string().optional(),
  lastMessageRole: z.enum(["system", "user", "assistant", "tool"]).optional(),
  model: z.string().optional(),
  jsonMode: z.boolean().optional(),
  hasTools: z.boolean().optional(),
  /** The request's sampling temperature (branched samples differ only in it). */
  temperature: z.number().optional(),
});

/** Timing of a streamed reply. */
export const scriptLatency = z.strictObject({
  /** Delay before the first byte of the response (headers included). */
  firstByteMs: z.number().nonnegative().optional(),
  /** Delay between streamed chunks. */
  chunkDelayMs: z.number().nonnegative().optional(),
});

/** An HTTP error reply with the DeepSeek error body. */
export const scriptError = z.strictObject({
  status: z.int().min(400).max(599),
  message: z.string().optional(),
  type: z.string().optional(),
  /** Sent as the Retry-After header (seconds). */
  retryAfter: z.number().nonnegative().optional(),
});

/** One scripted reply. */
export const scriptReply = z.strictObject({
  when: scriptWhen.optional(),
  reasoning: z.string().optional(),
  text: z.string().optional(),
  toolCalls: z.array(scriptToolCall).optional(),
  fault: scriptFault.optional(),
  finishReason: z
    .enum(["stop", "length", "tool_calls", "content_filter", "insufficient_system_resource"])
    .optional(),
  error: scriptError.optional(),
  /** Use this reply for this many consecutive requests (e.g. 429 twice, then the next reply). */
  repeat: z.int().min(1).optional(),
  latency: scriptLatency.optional(),
  /** `: keep-alive` comments sent before the first chunk. */
  keepAlive: z.int().nonnegative().optional(),
  /** Characters per streamed text/reasoning delta. */
  chunkChars: z.int().positive().optional(),
  /** Drop the connection after this many data chunks (a network failure mid-stream). */
  disconnectAfterChunks: z.int().nonnegative().optional(),
  /** Override the counted completion/reasoning tokens. */
  usage: z
    .strictObject({
      completionTokens: z.int().nonnegative().optional(),
      reasoningTokens: z.int().nonnegative().optional(),
    })
    .optional(),
});

/** A script file: `{ replies, latency?, chunkChars? }` (a bare array of replies is accepted too). */
export const scriptFile = z.strictObject({
  replies: z.array(scriptReply),
  /** Defaults for every reply. */
  latency: scriptLatency.optional(),
  chunkChars: z.int().positive().optional(),
  /** The context window: longer prompts get DeepSeek's 400 context-length error. */
  contextTokens: z.int().positive().optional(),
});

/** A tool call as written in a script. */
export type ScriptToolCall = z.input<typeof scriptToolCall>;
/** A fault as written in a script. */
export type ScriptFault = z.input<typeof scriptFault>;
/** A reply as written in a script. */
export type ScriptReply = z.input<typeof scriptReply>;
/** A script as written (JSON file or builder output). */
export type ScriptFile = z.input<typeof scriptFile>;
/** A validated script with defaults applied. */
export type Script = z.output<typeof scriptFile>;
/** A validated reply. */
export type Reply = z.output<typeof scriptReply>;

/** Result of parsing a script. */
export type ParseScriptResult = { ok: true; script: Script } | { ok: false; error: string };

/** Validates a script value; the error names the field, e.g. `replies[2].toolCalls[0].name: …`. */
export function parseScript(value: unknown): ParseScriptResult {
  const input = Array.isArray(value) ? { replies: value } : value;
  const parsed = scriptFile.safeParse(input);
  if (parsed.success) return { ok: true, script: parsed.data };
  const issue = parsed.error.issues[0];
  if (!issue) return { ok: false, error: "invalid script" };
  const where = formatPath(issue.path);
  return { ok: false, error: `${where ? `${where}: ` : ""}${issue.message}` };
}

/** Reads and validates a script file; errors start with the file path. Never throws. */
export async function loadScriptFile(path: string): Promise<ParseScriptResult> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    const code = err instanceof Error && "code" in err ? String(err.code) : "unreadable";
    return { ok: false, error: `${path}: cannot read the script (${code})` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return {
      ok: false,
      error: `${path}: not valid JSON (${err instanceof Error ? err.message : err})`,
    };
  }
  const result = parseScript(json);
  return result.ok ? result : { ok: false, error: `${path}: ${result.error}` };
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}
