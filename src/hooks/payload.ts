/** Building Keel-native payloads (for `keel hooks test` and the agent). */
import { EVENT_TABLE } from "./event-table.js";
import type { EventPayload, HookEventName, ToolInput } from "./events.js";

/** What a synthetic payload is built from; unset fields get neutral defaults. */
export interface PayloadOptions {
  projectDir: string;
  sessionId?: string;
  transcriptPath?: string;
  permissionMode?: "default" | "acceptEdits" | "plan" | "bypassPermissions";
  tool?: string;
  input?: ToolInput;
  toolUseId?: string;
  toolResponse?: unknown;
  error?: string;
  prompt?: string;
  source?: "startup" | "resume" | "clear" | "compact";
  /** SessionEnd's reason, or PermissionDenied's. */
  reason?: string;
  filePath?: string;
  commandName?: string;
  serverName?: string;
  configSource?:
    | "user_settings"
    | "project_settings"
    | "local_settings"
    | "policy_settings"
    | "skills";
  trigger?: "manual" | "auto";
  message?: string;
  notificationType?: string;
  lastAssistantMessage?: string;
  stopHookActive?: boolean;
  agentId?: string;
  agentType?: string;
}

/** A complete Keel-native payload for `event` (Keel tool names and input fields). */
export function buildPayload<E extends HookEventName>(event: E, o: PayloadOptions): EventPayload<E>;
export function buildPayload(event: HookEventName, o: PayloadOptions): object {
  const common = {
    session_id: o.sessionId ?? "keel-hooks-test",
    transcript_path: o.transcriptPath ?? "",
    cwd: o.projectDir,
    permission_mode: o.permissionMode ?? "default",
    hook_event_name: event,
  };
  const tool = {
    tool_name: o.tool ?? "shell",
    tool_input: o.input ?? {},
    tool_use_id: o.toolUseId ?? "toolu_test",
  };
  // Neutral defaults for the events the engine's tests build; any other event gets its sample
  // from the event table (event-table.ts).
  const fields: Partial<Record<HookEventName, Record<string, unknown>>> = {
    SessionStart: { source: o.source ?? "startup" },
    InstructionsLoaded: {
      file_path: `${o.projectDir}/AGENTS.md`,
      memory_type: "Project",
      load_reason: "session_start",
    },
    UserPromptExpansion: {
      command_name: "command",
      command_args: "",
      command_source: "project",
      prompt: o.prompt ?? "",
    },
    UserPromptSubmit: { prompt: o.prompt ?? "" },
    PreToolUse: tool,
    PermissionRequest: tool,
    PostToolUse: { ...tool, tool_response: o.toolResponse ?? "" },
    PostToolUseFailure: { ...tool, error: o.error ?? "" },
    Stop: {
      stop_hook_active: o.stopHookActive ?? false,
      last_assistant_message: o.lastAssistantMessage ?? "",
    },
    SubagentStart: { agent_id: o.agentId ?? "agent_test", agent_type: o.agentType ?? "general" },
    SubagentStop: {
      agent_id: o.agentId ?? "agent_test",
      agent_type: o.agentType ?? "general",
      stop_hook_active: o.stopHookActive ?? false,
      last_assistant_message: o.lastAssistantMessage ?? "",
    },
    PreCompact: { trigger: o.trigger ?? "manual", custom_instructions: "" },
    PostCompact: { trigger: o.trigger ?? "manual" },
    Notification: {
      message: o.message ?? "",
      notification_type: o.notificationType ?? "idle_prompt",
    },
    Elicitation: { mcp_server_name: o.tool ?? "server", message: o.message ?? "", mode: "form" },
    ElicitationResult: { mcp_server_name: o.tool ?? "server", action: "accept" },
    SessionEnd: { reason: o.reason ?? "exit" },
    Setup: { trigger: "init" },
    PermissionDenied: { ...tool, reason: o.reason ?? "" },
    PostToolBatch: { tool_calls: [{ ...tool, tool_response: o.toolResponse ?? "" }] },
    StopFailure: {
      error: o.error ?? "unknown",
      last_assistant_message: o.lastAssistantMessage ?? "",
    },
    ConfigChange: { source: o.configSource ?? "project_settings", file_path: o.filePath ?? "" },
    CwdChanged: { old_cwd: o.projectDir, new_cwd: o.projectDir },
    FileChanged: { file_path: o.filePath ?? "", event: "change" },
    WorktreeCreate: { name: "" },
    WorktreeRemove: { worktree_path: "" },
    TaskCreated: { task_id: "", task_subject: "", task_description: "" },
    TaskCompleted: { task_id: "", task_subject: "", task_description: "" },
    TeammateIdle: { teammate_name: "", team_name: "" },
    MessageDisplay: { turn_id: "", message_id: "", index: 0, final: true, delta: "" },
  };
  // The table is keyed by event, so the fields always belong to the event asked for.
  const own =
    fields[event] ??
    EVENT_TABLE[event].sample({
      projectDir: o.projectDir,
      tool: o.tool ?? "shell",
      toolInput: o.input ?? {},
      toolResponse: o.toolResponse ?? "",
      prompt: o.prompt ?? "",
    });
  return { ...common, ...own };
}
