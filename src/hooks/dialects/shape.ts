/** The payload shaping every dialect shares: stdin object and environment for one firing. */
import { effortVariables, isRecord } from "../../base/index.js";
import type { AnyEventPayload, ToolInput } from "../events.js";
import type { HookToolCatalog } from "../tool-descriptor.js";
import type { Dialect, DialectSessionFacts } from "./types.js";

/** Longest value put into one environment variable (Linux refuses single strings over 128 KiB). */
export const ENV_VALUE_MAX_CHARS = 32 * 1024;

/** What a hook of one dialect is given for one firing. */
export interface ShapedPayload {
  /** One JSON line, newline-terminated. */
  stdin: string;
  /** Hook-specific environment variables (to be laid over the user's environment). */
  env: Record<string, string>;
}

/** Text form of a tool's output (`HOOK_TOOL_OUTPUT`, Reasonix `toolResult`). */
export function toolOutputText(response: unknown): string {
  if (typeof response === "string") return response;
  if (isRecord(response) && typeof response.content === "string") return response.content;
  return JSON.stringify(response) ?? "";
}

function envValue(value: string): string {
  const clean = value.replaceAll("\0", "");
  return clean.length > ENV_VALUE_MAX_CHARS ? clean.slice(0, ENV_VALUE_MAX_CHARS) : clean;
}

/** What shapePayload is told besides the payload. */
interface ShapeOptions {
  projectDir: string;
  now?: Date;
  tools?: HookToolCatalog;
  session?: DialectSessionFacts;
  /** The user prompt's number in the session (1 for the first). */
  turn?: number;
  /** The last prompt the user submitted. */
  prompt?: string;
  /** On Stop: the answers since that prompt. */
  answers?: readonly string[];
  /** This call's step in the session (see ShapedTool.step). */
  step?: number;
}

/** The payload's tool call in the dialect's terms (all undefined off tool events). */
interface DialectTool {
  toolName?: string;
  toolInput?: ToolInput;
  toolOutput?: string;
  toolResponse?: unknown;
}

/** The tool name, input, output text and response of the payload as `dialect` names them. */
function dialectTool(
  dialect: Dialect,
  p: Record<string, unknown>,
  opts: ShapeOptions,
): DialectTool {
  const keelTool = typeof p.tool_name === "string" ? p.tool_name : undefined;
  const rawInput = p.tool_input;
  const keelInput: ToolInput | undefined = isRecord(rawInput) ? rawInput : undefined;
  const toolName = keelTool === undefined ? undefined : dialect.toolName(keelTool);
  const toolInput =
    keelTool === undefined || keelInput === undefined
      ? undefined
      : dialect.inputToDialect(keelTool, keelInput, { projectDir: opts.projectDir });
  const toolOutput =
    "tool_response" in p
      ? toolOutputText(p.tool_response)
      : typeof p.error === "string"
        ? p.error
        : undefined;

  const shapeResponse =
    keelTool === undefined ? undefined : responseShaper(dialect, keelTool, opts);
  const toolResponse =
    shapeResponse && "tool_response" in p
      ? shapeResponse(p.tool_response, keelInput ?? {})
      : undefined;
  return { toolName, toolInput, toolOutput, toolResponse };
}

/** The environment variables of docs/hooks.md for one firing, plus the dialect's own. */
function hookEnv(
  dialect: Dialect,
  payload: AnyEventPayload,
  tool: DialectTool,
  opts: ShapeOptions,
): Record<string, string> {
  const { toolName, toolInput, toolOutput } = tool;
  const eventName = dialect.eventName(payload.hook_event_name);
  const env: Record<string, string> = {
    KEEL_PROJECT_DIR: opts.projectDir,
    CLAUDE_PROJECT_DIR: opts.projectDir,
    KEEL_SESSION_ID: envValue(payload.session_id),
    HOOK_EVENT: eventName,
    hook_event_name: eventName,
    session_id: envValue(payload.session_id),
    timestamp: (opts.now ?? new Date()).toISOString(),
  };
  if (toolName !== undefined) {
    env.HOOK_TOOL_NAME = envValue(toolName);
    env.tool_name = envValue(toolName);
  }
  if (toolInput !== undefined) {
    env.HOOK_TOOL_INPUT = envValue(JSON.stringify(toolInput));
    for (const [key, value] of Object.entries(toolInput)) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) continue;
      if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
        env[`tool_input_${key}`] = envValue(String(value));
      }
    }
  }
  if (toolOutput !== undefined) env.HOOK_TOOL_OUTPUT = envValue(toolOutput);
  if (dialect.env) {
    for (const [key, value] of Object.entries(
      dialect.env(payload, {
        projectDir: opts.projectDir,
        ...(opts.session ? { session: opts.session } : {}),
        ...(opts.turn !== undefined ? { turn: opts.turn } : {}),
      }),
    )) {
      env[key] = envValue(value);
    }
  }
  return env;
}

/** The dialect's stdin object for the firing. */
function stdinObjectOf(
  dialect: Dialect,
  payload: AnyEventPayload,
  tool: DialectTool,
  opts: ShapeOptions,
): Record<string, unknown> {
  const { toolName, toolInput, toolOutput, toolResponse } = tool;
  // PostToolBatch carries many calls: each in the dialect's names and fields.
  const batch = (payload as { tool_calls?: unknown }).tool_calls;
  const shapedPayload = Array.isArray(batch)
    ? ({ ...payload, tool_calls: batch.map((c) => shapeCall(dialect, c, opts)) } as AnyEventPayload)
    : payload;
  return dialect.stdinObject(shapedPayload, {
    ...(toolName !== undefined ? { toolName } : {}),
    ...(toolInput !== undefined ? { toolInput } : {}),
    ...(toolOutput !== undefined ? { toolOutput } : {}),
    ...(toolResponse !== undefined ? { toolResponse } : {}),
    ...(opts.turn !== undefined ? { turn: opts.turn } : {}),
    ...(opts.prompt !== undefined ? { prompt: opts.prompt } : {}),
    ...(opts.answers !== undefined ? { answers: opts.answers } : {}),
    ...(opts.step !== undefined ? { step: opts.step } : {}),
  });
}

/**
 * Shapes a Keel-native payload for a hook of `dialect`: its tool names and input fields, its
 * stdin envelope, and the environment variables of docs/hooks.md. Payload text only ever goes
 * into stdin and environment values, never into a command line.
 */
export function shapePayload(
  dialect: Dialect,
  payload: AnyEventPayload,
  opts: ShapeOptions,
): ShapedPayload {
  // A dialect with its own transcript format sees that file (Claude hooks parse theirs).
  const transcript = opts.session?.transcriptPaths?.[dialect.name];
  if (transcript !== undefined) payload = { ...payload, transcript_path: transcript };
  const tool = dialectTool(dialect, { ...payload }, opts);
  const env = hookEnv(dialect, payload, tool, opts);
  const stdinObject = stdinObjectOf(dialect, payload, tool, opts);
  // Claude Code sets CLAUDE_EFFORT exactly when the payload carries `effort.level` (its
  // child-env builder reads it from the hook input); so here, per dialect, from its own stdin.
  const effort = stdinObject.effort;
  if (isRecord(effort) && typeof effort.level === "string") {
    for (const [key, value] of Object.entries(effortVariables(effort.level))) {
      env[key] = envValue(value);
    }
  }
  return { stdin: `${JSON.stringify(stdinObject)}\n`, env };
}

/** One call of a PostToolBatch payload in a dialect's tool names and input fields. */
function shapeCall(
  dialect: Dialect,
  call: unknown,
  opts: { projectDir: string; tools?: HookToolCatalog },
): unknown {
  if (!isRecord(call) || typeof call.tool_name !== "string") return call;
  const keelTool = call.tool_name;
  const input = isRecord(call.tool_input) ? call.tool_input : {};
  const shapeResponse = responseShaper(dialect, keelTool, opts);
  return {
    ...call,
    tool_name: dialect.toolName(keelTool),
    tool_input: dialect.inputToDialect(keelTool, input, { projectDir: opts.projectDir }),
    ...(shapeResponse ? { tool_response: shapeResponse(call.tool_response, input) } : {}),
  };
}

/**
 * How a dialect's hooks see a tool's response: the descriptor's own builder for the dialect
 * (a library's tool), else the dialect's for a tool the engine has a descriptor of (Keel's
 * built-ins). Without descriptors, responses pass as Keel's.
 */
function responseShaper(
  dialect: Dialect,
  keelTool: string,
  opts: { tools?: HookToolCatalog },
): ((response: unknown, input: ToolInput) => unknown) | undefined {
  const descriptor = opts.tools?.get(keelTool);
  if (descriptor === undefined) return undefined;
  return descriptor.response?.[dialect.name] ?? dialect.toolResponses?.[keelTool];
}
