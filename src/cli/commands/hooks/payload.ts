/**
 * The synthetic Keel-native payload `keel hooks test` fires: sensible defaults for every field
 * of every event, overridable from the command line, validated once with a schema.
 */
import { join } from "node:path";
import { z } from "zod";
import { lazy } from "../../../base/index.js";
import {
  COMMON_PAYLOAD,
  type CommonPayload,
  EVENT_SPECS,
  EVENT_TABLE,
  type EventPayload,
  type EventPayloadFields,
  HOOK_EVENTS,
  type HookEventName,
  isHookEventName,
  type ToolInput,
} from "../../../hooks/index.js";
import { BUILTIN_TOOL_SAMPLES } from "../../../tools/index.js";
import { UserError } from "../../user-error.js";

/** Command-line inputs that shape the payload. */
export interface TestPayloadOptions {
  /** The event name as typed (validated here). */
  event: string;
  projectDir: string;
  keelHome: string;
  tool?: string;
  /** `--input`: the tool input as JSON text, Keel field names. */
  input?: string;
  prompt?: string;
  /** `--payload`: a JSON object of payload fields overriding the defaults. */
  payload?: string;
  /** The model and effort level a `keel run` here would use (config.json), as real payloads
   *  carry them; absent when config.json gives none. */
  session?: { model?: string; effortLevel?: string };
}

/** Example inputs for Keel's built-in tools, used when `--input` is not given (each tool's
 *  definition states its own sample). */
export const DEFAULT_TOOL_INPUTS: Readonly<Record<string, ToolInput>> = BUILTIN_TOOL_SAMPLES;

// Built on first use: this module sits in the same bundle as `keel hooks list`, which must not
// load zod (test/cli/lazy-start.test.ts).
const toolInput = lazy(() => z.record(z.string(), z.unknown()));
const commonKeys = lazy(() => new Set(Object.keys(COMMON_PAYLOAD().shape)));

/** Parses the event name, or explains which names are valid. */
export function parseEventName(name: string): HookEventName {
  if (isHookEventName(name)) return name;
  const near = HOOK_EVENTS.find((e) => e.toLowerCase() === name.toLowerCase());
  const hint = near ? ` (did you mean ${near}?)` : "";
  throw new UserError(`unknown event "${name}"${hint}; valid events: ${HOOK_EVENTS.join(", ")}`);
}

function parseJsonObject(text: string, flag: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new UserError(`${flag} is not valid JSON: ${why}`);
  }
  const parsed = toolInput().safeParse(value);
  if (!parsed.success)
    throw new UserError(`${flag} must be a JSON object, like '{"command":"ls"}'`);
  return parsed.data;
}

/** What the agent passes as `tool_response`: the model's text plus the tool's details. */
function defaultToolResponse(tool: string): Record<string, unknown> {
  if (tool !== "shell") return { content: "ok" };
  return {
    content: "hello\n[exit code: 0]",
    stdout: "hello\n",
    stderr: "",
    exitCode: 0,
    interrupted: false,
    truncated: false,
  };
}

/** The event's sample payload (event-table.ts), filled from the command line. */
function defaultFields(event: HookEventName, opts: TestPayloadOptions): Record<string, unknown> {
  const tool =
    opts.tool ?? (event === "Elicitation" || event === "ElicitationResult" ? "server" : "shell");
  return EVENT_TABLE[event].sample({
    projectDir: opts.projectDir,
    tool,
    toolInput:
      opts.input !== undefined
        ? parseJsonObject(opts.input, "--input")
        : (DEFAULT_TOOL_INPUTS[tool] ?? {}),
    toolResponse: defaultToolResponse(tool),
    prompt: opts.prompt ?? "hello",
  });
}

function checkFlags(event: HookEventName, opts: TestPayloadOptions): void {
  const spec = EVENT_SPECS[event];
  const takesTool = spec.toolEvent || event === "PostToolBatch";
  if (!takesTool && opts.tool !== undefined) {
    throw new UserError(
      `--tool only applies to tool events (PreToolUse, PermissionRequest, PermissionDenied, PostToolUse, PostToolUseFailure, PostToolBatch), not ${event}`,
    );
  }
  if (!takesTool && opts.input !== undefined) {
    throw new UserError(`--input only applies to tool events, not ${event}`);
  }
  if (
    event !== "UserPromptSubmit" &&
    event !== "UserPromptExpansion" &&
    opts.prompt !== undefined
  ) {
    throw new UserError(
      `--prompt only applies to UserPromptSubmit and UserPromptExpansion, not ${event}`,
    );
  }
}

/** Builds and validates the payload for `keel hooks test`; throws UserError for bad flags. */
export function buildTestPayload(opts: TestPayloadOptions): EventPayload {
  const event = parseEventName(opts.event);
  checkFlags(event, opts);
  const overrides = opts.payload !== undefined ? parseJsonObject(opts.payload, "--payload") : {};
  const common = COMMON_PAYLOAD().safeParse({
    session_id: "hooks-test",
    transcript_path: join(opts.keelHome, "sessions", "hooks-test.jsonl"),
    cwd: opts.projectDir,
    permission_mode: "default",
    ...(opts.session?.model !== undefined ? { model: opts.session.model } : {}),
    ...(opts.session?.effortLevel !== undefined
      ? { effort: { level: opts.session.effortLevel } }
      : {}),
    ...Object.fromEntries(Object.entries(overrides).filter(([k]) => commonKeys().has(k))),
  });
  if (!common.success) throw new UserError(`--payload: ${describeIssue(common.error)}`);
  const fields = EVENT_TABLE[event].payload().safeParse({
    ...defaultFields(event, opts),
    ...Object.fromEntries(Object.entries(overrides).filter(([k]) => !commonKeys().has(k))),
  });
  if (!fields.success) throw new UserError(`${event} payload: ${describeIssue(fields.error)}`);
  // The table is keyed by event: the fields parsed by event's own schema are event's fields.
  return withEvent(event, common.data, fields.data as EventPayloadFields[typeof event]);
}

function withEvent<E extends HookEventName>(
  event: E,
  common: CommonPayload,
  fields: EventPayloadFields[E],
): EventPayload<E> {
  const head: CommonPayload & { hook_event_name: E } = { ...common, hook_event_name: event };
  return Object.assign(head, fields);
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "invalid";
  const at = issue.path.length > 0 ? `field "${issue.path.join(".")}": ` : "";
  return `${at}${issue.message}`;
}
