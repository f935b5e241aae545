/**
 * The event catalogue: for each of Claude Code's 30 events, whether a hook can gate it, what
 * a matcher filters on, and whether Keel has the moment it announces. Facts from Claude Code
 * 2.1.197's own event table (exit 2 meaning, matcher field).
 */
import type { EventSpec, HookEventName, MatcherField } from "./events.js";

function spec(
  name: HookEventName,
  gating: boolean,
  matcherField: MatcherField,
  description: string,
  more: { toolEvent?: boolean; firesInKeel?: boolean; search?: boolean; continues?: boolean } = {},
): EventSpec {
  return {
    name,
    gating,
    blockContinues: more.continues ?? false,
    toolEvent: more.toolEvent ?? false,
    matcherField,
    matchMode: more.search ? "search" : "name",
    firesInKeel: more.firesInKeel ?? true,
    description,
  };
}

const tool = { toolEvent: true };
const never = { firesInKeel: false };
const continues = { continues: true };

/** The catalogue, keyed by event name. */
export const EVENT_SPECS: Readonly<Record<HookEventName, EventSpec>> = {
  Setup: spec("Setup", false, "trigger", "Repository set-up (trigger: init, maintenance).", never),
  SessionStart: spec(
    "SessionStart",
    false,
    "source",
    "A session starts or resumes (source: startup, resume, clear, compact).",
  ),
  InstructionsLoaded: spec(
    "InstructionsLoaded",
    false,
    "load_reason",
    "An instruction file (KEEL.md, CLAUDE.md, a rule) was loaded.",
  ),
  UserPromptSubmit: spec(
    "UserPromptSubmit",
    true,
    "prompt",
    "The user submitted a prompt, before the model sees it.",
    { search: true },
  ),
  UserPromptExpansion: spec(
    "UserPromptExpansion",
    true,
    "command_name",
    "A slash command the user typed expands into a prompt. A block stops the expansion.",
  ),
  PreToolUse: spec(
    "PreToolUse",
    true,
    "tool_name",
    "The model asked for a tool call, before it runs.",
    tool,
  ),
  PermissionRequest: spec(
    "PermissionRequest",
    true,
    "tool_name",
    "The agent is about to ask the user to approve a tool call.",
    tool,
  ),
  PermissionDenied: spec(
    "PermissionDenied",
    false,
    "tool_name",
    "A tool call was denied without asking (mode, rule, headless). `retry: true` tells the model it may retry.",
    tool,
  ),
  PostToolUse: spec(
    "PostToolUse",
    false,
    "tool_name",
    "A tool returned successfully, before the model sees the result.",
    tool,
  ),
  PostToolUseFailure: spec("PostToolUseFailure", false, "tool_name", "A tool failed.", tool),
  PostToolBatch: spec(
    "PostToolBatch",
    true,
    null,
    "Every tool call of one model response has resolved, before the next request. A block stops the turn.",
  ),
  Stop: spec(
    "Stop",
    true,
    null,
    "The agent finished its turn (final text, no tool calls). A block makes it continue.",
    continues,
  ),
  StopFailure: spec(
    "StopFailure",
    false,
    "error",
    "A turn ended with an error (the model request failed). Output is ignored.",
  ),
  SubagentStart: spec("SubagentStart", false, "agent_type", "A sub-agent starts."),
  SubagentStop: spec(
    "SubagentStop",
    true,
    "agent_type",
    "A sub-agent finishes. A block makes it continue.",
    continues,
  ),
  PreCompact: spec(
    "PreCompact",
    true,
    "trigger",
    "Before the conversation is compacted (trigger: manual, auto).",
  ),
  PostCompact: spec("PostCompact", false, "trigger", "After the conversation was compacted."),
  Notification: spec(
    "Notification",
    false,
    "notification_type",
    "The agent needs the user (notification_type: permission_prompt, idle_prompt).",
  ),
  ConfigChange: spec(
    "ConfigChange",
    true,
    "source",
    "A settings file changed during the session (/hooks reload). A block keeps the old hooks.",
  ),
  CwdChanged: spec("CwdChanged", false, null, "The working directory changed.", never),
  FileChanged: spec(
    "FileChanged",
    false,
    "file_name",
    "A watched file was added, changed or removed (the matcher's literal file names in the project, or watchPaths from SessionStart/FileChanged output).",
  ),
  Elicitation: spec(
    "Elicitation",
    true,
    "mcp_server_name",
    "An MCP server asks the user for input; a hook may answer (action, content).",
  ),
  ElicitationResult: spec(
    "ElicitationResult",
    true,
    "mcp_server_name",
    "The user answered an MCP elicitation; a hook may override it.",
  ),
  WorktreeCreate: spec("WorktreeCreate", true, null, "Create an isolated worktree.", never),
  WorktreeRemove: spec("WorktreeRemove", false, null, "Remove a worktree.", never),
  TaskCreated: spec("TaskCreated", true, null, "An agent-team task is created.", never),
  TaskCompleted: spec("TaskCompleted", true, null, "An agent-team task is completed.", {
    ...never,
    ...continues,
  }),
  TeammateIdle: spec("TeammateIdle", true, null, "An agent-team teammate goes idle.", {
    ...never,
    ...continues,
  }),
  MessageDisplay: spec(
    "MessageDisplay",
    false,
    null,
    "Assistant text is displayed (display only).",
    never,
  ),
  SessionEnd: spec(
    "SessionEnd",
    false,
    "reason",
    "The session ends (reason: exit, clear, logout, other).",
  ),
};
