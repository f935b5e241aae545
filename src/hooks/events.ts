/**
 * The hook event catalogue (design §2.1): names, which events can gate the agent, what a
 * matcher filters on, default timeouts, and the typed Keel-native payload of each event.
 *
 * Payloads here are always in Keel's terms (Keel tool names and input fields, absolute
 * `cwd`). Dialects translate them into their own agent's shape before a hook sees them.
 */

/** Every event Keel knows (Claude Code's 30), in lifecycle order. */
export const HOOK_EVENTS = [
  "Setup",
  "SessionStart",
  "InstructionsLoaded",
  "UserPromptSubmit",
  "UserPromptExpansion",
  "PreToolUse",
  "PermissionRequest",
  "PermissionDenied",
  "PostToolUse",
  "PostToolUseFailure",
  "PostToolBatch",
  "Stop",
  "StopFailure",
  "SubagentStart",
  "SubagentStop",
  "PreCompact",
  "PostCompact",
  "Notification",
  "ConfigChange",
  "CwdChanged",
  "FileChanged",
  "Elicitation",
  "ElicitationResult",
  "WorktreeCreate",
  "WorktreeRemove",
  "TaskCreated",
  "TaskCompleted",
  "TeammateIdle",
  "MessageDisplay",
  "SessionEnd",
] as const;

/** The name of a hook event. */
export type HookEventName = (typeof HOOK_EVENTS)[number];

/** The payload field a matcher is tested against, per event (null: matchers are ignored). */
export type MatcherField =
  | "tool_name"
  | "prompt"
  | "source"
  | "trigger"
  | "notification_type"
  | "reason"
  | "agent_type"
  | "error"
  | "load_reason"
  | "command_name"
  | "mcp_server_name"
  | "file_name"
  | null;

/** Static facts about one event. */
export interface EventSpec {
  readonly name: HookEventName;
  /** Whether a hook can stop the thing the event announces (block, deny, continue the turn). */
  readonly gating: boolean;
  /** Whether a block makes the agent go on working (Stop, SubagentStop, …) instead of stopping
   *  an action: a hook that times out there does not block (fail-closed would buy model turns,
   *  not safety), unless its handler says `"onTimeout": "block"`. */
  readonly blockContinues: boolean;
  /** Whether the event concerns a tool call (`if` conditions only apply to these). */
  readonly toolEvent: boolean;
  readonly matcherField: MatcherField;
  /** How a matcher is tested against the matcher field: full match, or a regex search (prompt text). */
  readonly matchMode: "name" | "search";
  /** Whether Keel has the moment this event announces (false: defined for Claude Code files,
   *  listed once by `keel hooks validate` as "never fires in Keel"). */
  readonly firesInKeel: boolean;
  readonly description: string;
}

export { EVENT_SPECS } from "./event-specs.js";

/** Whether `name` is a known event (case-sensitive, as in every dialect). */
export function isHookEventName(name: string): name is HookEventName {
  return (HOOK_EVENTS as readonly string[]).includes(name);
}

/** Default handler timeouts in seconds for the native dialect (design §2.2). */
export const DEFAULT_TIMEOUT_SEC = {
  command: 60,
  http: 60,
  prompt: 30,
  agent: 120,
  mcp_tool: 60,
} as const;

/** The longest a hook may run: 24 h (Node's timers overflow past 2^31-1 ms and fire at once). */
export const MAX_HOOK_TIMEOUT_MS = 24 * 60 * 60 * 1000;

/** All SessionEnd hooks together get this budget, in milliseconds. */
export const SESSION_END_BUDGET_MS = 2000;

/** Grace between SIGTERM and SIGKILL for a timed-out hook's process group. */
export const KILL_GRACE_MS = 500;

/** At most this many Stop blocks in a row before the agent stops anyway. */
export const MAX_STOP_BLOCKS_IN_A_ROW = 8;

/** Fields every payload carries. */
export interface CommonPayload {
  session_id: string;
  transcript_path: string;
  /** Absolute working directory of the session (the project root). */
  cwd: string;
  permission_mode: "default" | "acceptEdits" | "plan" | "bypassPermissions";
}

/** A JSON object as tools take it. */
export type ToolInput = Record<string, unknown>;

/** Payload fields per event, in Keel's terms. */
export interface EventPayloadFields {
  SessionStart: { source: "startup" | "resume" | "clear" | "compact" };
  UserPromptSubmit: { prompt: string };
  PreToolUse: { tool_name: string; tool_input: ToolInput; tool_use_id: string };
  PermissionRequest: { tool_name: string; tool_input: ToolInput; tool_use_id: string };
  PostToolUse: {
    tool_name: string;
    tool_input: ToolInput;
    tool_use_id: string;
    /** What the tool returned: the text the model will see plus structured details. */
    tool_response: unknown;
    duration_ms?: number;
  };
  PostToolUseFailure: {
    tool_name: string;
    tool_input: ToolInput;
    tool_use_id: string;
    error: string;
    is_interrupt?: boolean;
    duration_ms?: number;
  };
  Stop: { stop_hook_active: boolean; last_assistant_message: string };
  SubagentStart: { agent_id: string; agent_type: string };
  SubagentStop: {
    agent_id: string;
    agent_type: string;
    stop_hook_active: boolean;
    last_assistant_message: string;
  };
  PreCompact: { trigger: "manual" | "auto"; custom_instructions: string };
  PostCompact: { trigger: "manual" | "auto" };
  Notification: {
    message: string;
    notification_type: "permission_prompt" | "idle_prompt" | string;
  };
  SessionEnd: { reason: "exit" | "clear" | "logout" | "other" };
  Setup: { trigger: "init" | "maintenance" };
  InstructionsLoaded: {
    file_path: string;
    memory_type: "User" | "Project" | "Local" | "Managed";
    load_reason: "session_start" | "nested_traversal" | "path_glob_match" | "include" | "compact";
    globs?: string[];
    trigger_file_path?: string;
    parent_file_path?: string;
  };
  UserPromptExpansion: {
    expansion_type?: "slash_command" | "mcp_prompt";
    command_name: string;
    command_args: string;
    command_source: string;
    prompt: string;
  };
  PermissionDenied: {
    tool_name: string;
    tool_input: ToolInput;
    tool_use_id: string;
    reason: string;
  };
  PostToolBatch: {
    tool_calls: {
      tool_name: string;
      tool_input: ToolInput;
      tool_use_id: string;
      tool_response: unknown;
    }[];
  };
  StopFailure: { error: string; error_details?: string; last_assistant_message?: string };
  ConfigChange: {
    source: "user_settings" | "project_settings" | "local_settings" | "policy_settings" | "skills";
    file_path: string;
  };
  CwdChanged: { old_cwd: string; new_cwd: string };
  FileChanged: { file_path: string; event: "change" | "add" | "unlink" };
  Elicitation: {
    mcp_server_name: string;
    message: string;
    mode?: string;
    url?: string;
    elicitation_id?: string;
    requested_schema?: unknown;
  };
  ElicitationResult: {
    mcp_server_name: string;
    elicitation_id?: string;
    mode?: string;
    action: "accept" | "decline" | "cancel";
    content?: unknown;
  };
  WorktreeCreate: { name: string };
  WorktreeRemove: { worktree_path: string };
  TaskCreated: TaskFields;
  TaskCompleted: TaskFields;
  TeammateIdle: { teammate_name: string; team_name: string };
  MessageDisplay: {
    turn_id: string;
    message_id: string;
    index: number;
    final: boolean;
    delta: string;
  };
}

/** TaskCreated / TaskCompleted fields (Claude Code agent teams). */
export interface TaskFields {
  task_id: string;
  task_subject: string;
  task_description: string;
  teammate_name?: string;
  team_name?: string;
}

/** The full Keel-native payload of event E, as written to a native hook's stdin. */
export type EventPayload<E extends HookEventName = HookEventName> = CommonPayload & {
  hook_event_name: E;
} & EventPayloadFields[E];

/** Any event's payload (a discriminated union on `hook_event_name`). */
export type AnyEventPayload = { [E in HookEventName]: EventPayload<E> }[HookEventName];
