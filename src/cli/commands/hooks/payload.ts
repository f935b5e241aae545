/**
 * The synthetic Keel-native payload `keel hooks test` fires: sensible defaults for every field
 * of every event, overridable from the command line, validated once with a schema.
 */
import { join } from "node:path";
import { z } from "zod";
import {
  type CommonPayload,
  EVENT_SPECS,
  type EventPayload,
  type EventPayloadFields,
  HOOK_EVENTS,
  type HookEventName,
  isHookEventName,
  type ToolInput,
} from "../../../hooks/events.js";
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
}

/** Example inputs for Keel's built-in tools, used when `--input` is not given (each tool's
 *  definition states its own sample). */
export const DEFAULT_TOOL_INPUTS: Readonly<Record<string, ToolInput>> = BUILTIN_TOOL_SAMPLES;

const toolInput = z.record(z.string(), z.unknown());
const toolFields = { tool_name: z.string().min(1), tool_input: toolInput, tool_use_id: z.string() };
const stopFields = { stop_hook_active: z.boolean(), last_assistant_message: z.string() };
const trigger = z.enum(["manual", "auto"]);
const taskFields = {
  task_id: z.string(),
  task_subject: z.string(),
  task_description: z.string(),
  teammate_name: z.string().optional(),
  team_name: z.string().optional(),
};

const FIELD_SCHEMAS: { [E in HookEventName]: z.ZodType<EventPayloadFields[E]> } = {
  SessionStart: z.strictObject({ source: z.enum(["startup", "resume", "clear", "compact"]) }),
  UserPromptSubmit: z.strictObject({ prompt: z.string() }),
  PreToolUse: z.strictObject(toolFields),
  PermissionRequest: z.strictObject(toolFields),
  PostToolUse: z.strictObject({
    ...toolFields,
    tool_response: z.unknown(),
    duration_ms: z.number().optional(),
  }),
  PostToolUseFailure: z.strictObject({
    ...toolFields,
    error: z.string(),
    is_interrupt: z.boolean().optional(),
    duration_ms: z.number().optional(),
  }),
  Stop: z.strictObject(stopFields),
  SubagentStart: z.strictObject({ agent_id: z.string(), agent_type: z.string() }),
  SubagentStop: z.strictObject({ agent_id: z.string(), agent_type: z.string(), ...stopFields }),
  PreCompact: z.strictObject({ trigger, custom_instructions: z.string() }),
  PostCompact: z.strictObject({ trigger }),
  Notification: z.strictObject({ message: z.string(), notification_type: z.string() }),
  Elicitation: z.strictObject({
    mcp_server_name: z.string(),
    message: z.string(),
    mode: z.enum(["form", "url"]),
    url: z.string().optional(),
    requested_schema: toolInput.optional(),
  }),
  ElicitationResult: z.strictObject({
    mcp_server_name: z.string(),
    action: z.enum(["accept", "decline", "cancel"]),
    content: toolInput.optional(),
  }),
  SessionEnd: z.strictObject({ reason: z.enum(["exit", "clear", "logout", "other"]) }),
  Setup: z.strictObject({ trigger: z.enum(["init", "maintenance"]) }),
  InstructionsLoaded: z.strictObject({
    file_path: z.string(),
    memory_type: z.enum(["User", "Project", "Local", "Managed"]),
    load_reason: z.enum([
      "session_start",
      "nested_traversal",
      "path_glob_match",
      "include",
      "compact",
    ]),
    globs: z.array(z.string()).optional(),
    trigger_file_path: z.string().optional(),
    parent_file_path: z.string().optional(),
  }),
  UserPromptExpansion: z.strictObject({
    expansion_type: z.enum(["slash_command", "mcp_prompt"]).optional(),
    command_name: z.string(),
    command_args: z.string(),
    command_source: z.string(),
    prompt: z.string(),
  }),
  PermissionDenied: z.strictObject({ ...toolFields, reason: z.string() }),
  PostToolBatch: z.strictObject({
    tool_calls: z.array(z.strictObject({ ...toolFields, tool_response: z.unknown() })),
  }),
  StopFailure: z.strictObject({
    error: z.string(),
    error_details: z.string().optional(),
    last_assistant_message: z.string().optional(),
  }),
  ConfigChange: z.strictObject({
    source: z.enum([
      "user_settings",
      "project_settings",
      "local_settings",
      "policy_settings",
      "skills",
    ]),
    file_path: z.string(),
  }),
  CwdChanged: z.strictObject({ old_cwd: z.string(), new_cwd: z.string() }),
  FileChanged: z.strictObject({
    file_path: z.string(),
    event: z.enum(["change", "add", "unlink"]),
  }),
  WorktreeCreate: z.strictObject({ name: z.string() }),
  WorktreeRemove: z.strictObject({ worktree_path: z.string() }),
  TaskCreated: z.strictObject(taskFields),
  TaskCompleted: z.strictObject(taskFields),
  TeammateIdle: z.strictObject({ teammate_name: z.string(), team_name: z.string() }),
  MessageDisplay: z.strictObject({
    turn_id: z.string(),
    message_id: z.string(),
    index: z.number(),
    final: z.boolean(),
    delta: z.string(),
  }),
};

const COMMON_SCHEMA = z.object({
  session_id: z.string(),
  transcript_path: z.string(),
  cwd: z.string(),
  permission_mode: z.enum(["default", "acceptEdits", "plan", "bypassPermissions"]),
});
const COMMON_KEYS = new Set(Object.keys(COMMON_SCHEMA.shape));

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
  const parsed = toolInput.safeParse(value);
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

function defaultFields(event: HookEventName, opts: TestPayloadOptions): Record<string, unknown> {
  const tool = opts.tool ?? "shell";
  const toolDefaults = {
    tool_name: tool,
    tool_input:
      opts.input !== undefined
        ? parseJsonObject(opts.input, "--input")
        : (DEFAULT_TOOL_INPUTS[tool] ?? {}),
    tool_use_id: "call_hooks_test_1",
  };
  const stop = { stop_hook_active: false, last_assistant_message: "All done." };
  switch (event) {
    case "SessionStart":
      return { source: "startup" };
    case "InstructionsLoaded":
      return {
        file_path: `${opts.projectDir}/AGENTS.md`,
        memory_type: "Project",
        load_reason: "session_start",
      };
    case "UserPromptExpansion":
      return {
        command_name: "review",
        command_args: "",
        command_source: "project",
        prompt: opts.prompt ?? "hello",
      };
    case "UserPromptSubmit":
      return { prompt: opts.prompt ?? "hello" };
    case "PreToolUse":
    case "PermissionRequest":
      return toolDefaults;
    case "PostToolUse":
      return { ...toolDefaults, tool_response: defaultToolResponse(tool), duration_ms: 1 };
    case "PostToolUseFailure":
      return { ...toolDefaults, error: "simulated failure (keel hooks test)", duration_ms: 1 };
    case "Stop":
      return stop;
    case "SubagentStart":
      return { agent_id: "agent_hooks_test_1", agent_type: "general" };
    case "SubagentStop":
      return { agent_id: "agent_hooks_test_1", agent_type: "general", ...stop };
    case "PreCompact":
      return { trigger: "manual", custom_instructions: "" };
    case "PostCompact":
      return { trigger: "manual" };
    case "Elicitation":
      return {
        mcp_server_name: opts.tool ?? "server",
        message: "What is your name?",
        mode: "form",
      };
    case "ElicitationResult":
      return { mcp_server_name: opts.tool ?? "server", action: "accept", content: { name: "Ada" } };
    case "Notification":
      return {
        message: "Keel needs your permission to use shell",
        notification_type: "permission_prompt",
      };
    case "SessionEnd":
      return { reason: "exit" };
    case "Setup":
      return { trigger: "init" };
    case "PermissionDenied":
      return { ...toolDefaults, reason: "denied by the permission mode (keel hooks test)" };
    case "PostToolBatch":
      return { tool_calls: [{ ...toolDefaults, tool_response: defaultToolResponse(tool) }] };
    case "StopFailure":
      return { error: "server_error", error_details: "simulated failure (keel hooks test)" };
    case "ConfigChange":
      return {
        source: "project_settings",
        file_path: join(opts.projectDir, ".keel", "settings.json"),
      };
    case "CwdChanged":
      return { old_cwd: opts.projectDir, new_cwd: opts.projectDir };
    case "FileChanged":
      return { file_path: join(opts.projectDir, ".env"), event: "change" };
    case "WorktreeCreate":
      return { name: "hooks-test" };
    case "WorktreeRemove":
      return { worktree_path: join(opts.projectDir, "..", "hooks-test") };
    case "TaskCreated":
    case "TaskCompleted":
      return { task_id: "task_1", task_subject: "Test", task_description: "A test task" };
    case "TeammateIdle":
      return { teammate_name: "helper", team_name: "team" };
    case "MessageDisplay":
      return { turn_id: "t1", message_id: "m1", index: 0, final: true, delta: "All done." };
  }
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
  const common = COMMON_SCHEMA.safeParse({
    session_id: "hooks-test",
    transcript_path: join(opts.keelHome, "sessions", "hooks-test.jsonl"),
    cwd: opts.projectDir,
    permission_mode: "default",
    ...Object.fromEntries(Object.entries(overrides).filter(([k]) => COMMON_KEYS.has(k))),
  });
  if (!common.success) throw new UserError(`--payload: ${describeIssue(common.error)}`);
  const fields = FIELD_SCHEMAS[event].safeParse({
    ...defaultFields(event, opts),
    ...Object.fromEntries(Object.entries(overrides).filter(([k]) => !COMMON_KEYS.has(k))),
  });
  if (!fields.success) throw new UserError(`${event} payload: ${describeIssue(fields.error)}`);
  return withEvent(event, common.data, fields.data);
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
