/**
 * The hook event catalogue (design §2.1): names, which events can gate the agent, what a
 * matcher filters on, default timeouts, and the typed Keel-native payload of each event.
 *
 * Payloads here are always in Keel's terms (Keel tool names and input fields, absolute
 * `cwd`). Dialects translate them into their own agent's shape before a hook sees them.
 */

/** Every event Keel knows, in lifecycle order. */
export const HOOK_EVENTS = [
  "SessionStart",
  "InstructionsLoaded",
  "UserPromptExpansion",
  "UserPromptSubmit",
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PostToolUseFailure",
  "Stop",
  "SubagentStart",
  "SubagentStop",
  "PreCompact",
  "PostCompact",
  "Notification",
  "Elicitation",
  "ElicitationResult",
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
  | "load_reason"
  | "command_name"
  | "mcp_server_name"
  | null;

/** Static facts about one event. */
export interface EventSpec {
  readonly name: HookEventName;
  /** Whether a hook can stop the thing the event announces (block, deny, continue the turn). */
  readonly gating: boolean;
  /** Whether the event concerns a tool call (`if` conditions only apply to these). */
  readonly toolEvent: boolean;
  readonly matcherField: MatcherField;
  /** How a matcher is tested against the matcher field: full match, or a regex search (prompt text). */
  readonly matchMode: "name" | "search";
  readonly description: string;
}

const spec = (s: EventSpec): EventSpec => s;

/** The catalogue, keyed by event name. */
export const EVENT_SPECS: Readonly<Record<HookEventName, EventSpec>> = {
  SessionStart: spec({
    name: "SessionStart",
    gating: false,
    toolEvent: false,
    matcherField: "source",
    matchMode: "name",
    description: "A session starts or resumes (source: startup, resume, clear, compact).",
  }),
  InstructionsLoaded: spec({
    name: "InstructionsLoaded",
    gating: false,
    toolEvent: false,
    matcherField: "load_reason",
    matchMode: "name",
    description:
      "A memory file (AGENTS.md, KEEL.md, CLAUDE.md or an @import) was loaded into the context.",
  }),
  UserPromptExpansion: spec({
    name: "UserPromptExpansion",
    gating: true,
    toolEvent: false,
    matcherField: "command_name",
    matchMode: "name",
    description: "A custom slash command is about to be expanded into a prompt.",
  }),
  UserPromptSubmit: spec({
    name: "UserPromptSubmit",
    gating: true,
    toolEvent: false,
    matcherField: "prompt",
    matchMode: "search",
    description: "The user submitted a prompt, before the model sees it.",
  }),
  PreToolUse: spec({
    name: "PreToolUse",
    gating: true,
    toolEvent: true,
    matcherField: "tool_name",
    matchMode: "name",
    description: "The model asked for a tool call, before it runs.",
  }),
  PermissionRequest: spec({
    name: "PermissionRequest",
    gating: true,
    toolEvent: true,
    matcherField: "tool_name",
    matchMode: "name",
    description: "The agent is about to ask the user to approve a tool call.",
  }),
  PostToolUse: spec({
    name: "PostToolUse",
    gating: false,
    toolEvent: true,
    matcherField: "tool_name",
    matchMode: "name",
    description: "A tool returned successfully, before the model sees the result.",
  }),
  PostToolUseFailure: spec({
    name: "PostToolUseFailure",
    gating: false,
    toolEvent: true,
    matcherField: "tool_name",
    matchMode: "name",
    description: "A tool failed.",
  }),
  Stop: spec({
    name: "Stop",
    gating: true,
    toolEvent: false,
    matcherField: null,
    matchMode: "name",
    description:
      "The agent finished its turn (final text, no tool calls). A block makes it continue.",
  }),
  SubagentStart: spec({
    name: "SubagentStart",
    gating: false,
    toolEvent: false,
    matcherField: "agent_type",
    matchMode: "name",
    description: "A sub-agent starts.",
  }),
  SubagentStop: spec({
    name: "SubagentStop",
    gating: true,
    toolEvent: false,
    matcherField: "agent_type",
    matchMode: "name",
    description: "A sub-agent finishes. A block makes it continue.",
  }),
  PreCompact: spec({
    name: "PreCompact",
    gating: true,
    toolEvent: false,
    matcherField: "trigger",
    matchMode: "name",
    description: "Before the conversation is compacted (trigger: manual, auto).",
  }),
  PostCompact: spec({
    name: "PostCompact",
    gating: false,
    toolEvent: false,
    matcherField: "trigger",
    matchMode: "name",
    description: "After the conversation was compacted.",
  }),
  Notification: spec({
    name: "Notification",
    gating: false,
    toolEvent: false,
    matcherField: "notification_type",
    matchMode: "name",
    description: "The agent needs the user (notification_type: permission_prompt, idle_prompt).",
  }),
  Elicitation: spec({
    name: "Elicitation",
    gating: true,
    toolEvent: false,
    matcherField: "mcp_server_name",
    matchMode: "name",
    description:
      "An MCP server asks the user for input; a hook may answer (action, content) or decline (exit 2).",
  }),
  ElicitationResult: spec({
    name: "ElicitationResult",
    gating: true,
    toolEvent: false,
    matcherField: "mcp_server_name",
    matchMode: "name",
    description:
      "The user answered an MCP server's request, before the answer is sent; a hook may change it.",
  }),
  SessionEnd: spec({
    name: "SessionEnd",
    gating: false,
    toolEvent: false,
    matcherField: "reason",
    matchMode: "name",
    description: "The session ends (reason: exit, clear, logout, other).",
  }),
};

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
  /** Set when the event fires inside a sub-agent (its id and type), as in Claude Code. */
  agent_id?: string;
  agent_type?: string;
  /** The user prompt this firing belongs to (every event but SessionStart, as Claude Code). */
  prompt_id?: string;
}

/** A JSON object as tools take it. */
export type ToolInput = Record<string, unknown>;

/** Payload fields per event, in Keel's terms. */
export interface EventPayloadFields {
  SessionStart: { source: "startup" | "resume" | "clear" | "compact" };
  InstructionsLoaded: {
    file_path: string;
    memory_type: "User" | "Project";
    load_reason: "session_start" | "include" | "compact";
    parent_file_path?: string;
  };
  UserPromptExpansion: {
    command_name: string;
    command_args: string;
    command_source: "project" | "user" | "claude";
    prompt: string;
  };
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
  Elicitation: {
    mcp_server_name: string;
    message: string;
    mode: "form" | "url";
    url?: string;
    requested_schema?: Record<string, unknown>;
  };
  ElicitationResult: {
    mcp_server_name: string;
    action: "accept" | "decline" | "cancel";
    content?: Record<string, unknown>;
  };
  SessionEnd: { reason: "exit" | "clear" | "logout" | "other" };
}

/** The full Keel-native payload of event E, as written to a native hook's stdin. */
export type EventPayload<E extends HookEventName = HookEventName> = CommonPayload & {
  hook_event_name: E;
} & EventPayloadFields[E];

/** Any event's payload (a discriminated union on `hook_event_name`). */
export type AnyEventPayload = { [E in HookEventName]: EventPayload<E> }[HookEventName];
