/**
 * The event table: every hook event defined once (issue 25's `defineEvent`). An entry states
 * whether a hook can gate the event, what a matcher filters on, whether Keel has the moment, a
 * one-line description, the payload as a zod object and the sample `keel hooks test` sends.
 * Derived from it: `HOOK_EVENTS` and `EVENT_SPECS` (events.ts), the payload types
 * (`EventPayloadFields` in events.ts), the `hooks test` schema (cli/commands/hooks/payload.ts)
 * and docs/hooks.md's payload tables (test/hooks/event-docs.test.ts keeps them equal).
 *
 * The payload schemas are built on first use (`payload()`, base/lazy.ts): start-up paths read
 * the table's facts (`keel hooks list` validates event names and matchers) without loading zod,
 * which only `hooks test`, payload checks and the docs test need (test/cli/lazy-start.test.ts).
 *
 * Adding an event = one entry here (in lifecycle order) plus its fire site. Facts from Claude
 * Code's own event table (exit 2 meaning, matcher field), measured in compat/.
 */
import { join } from "node:path";
import { z } from "zod";
import { lazy } from "../base/index.js";

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

/** What a sample payload is built from (`keel hooks test` fills it from its flags). */
export interface SampleContext {
  projectDir: string;
  /** The tool a tool event names, its input and what it returned. */
  tool: string;
  toolInput: Record<string, unknown>;
  toolResponse: unknown;
  /** UserPromptSubmit / UserPromptExpansion's prompt. */
  prompt: string;
}

/** One event as written in the table. */
export interface EventDefinition<P extends z.ZodObject = z.ZodObject> {
  /** Whether a hook can stop the thing the event announces (block, deny, continue the turn). */
  gating: boolean;
  matcher: MatcherField;
  /** How a matcher is tested: full name match (default), or a regex search (prompt text). */
  matchMode?: "name" | "search";
  /** Whether the event concerns a tool call (`if` conditions only apply to these). */
  toolEvent?: boolean;
  /** Whether a block makes the agent go on working (Stop, SubagentStop, …) instead of stopping
   *  an action (a hook that times out there does not block, see EventSpec). */
  blockContinues?: boolean;
  /** False when Keel does not have the moment the event announces (never fires in Keel). */
  firesInKeel?: boolean;
  description: string;
  /** The event's own payload fields (the common ones are COMMON_PAYLOAD), built on first call. */
  payload: () => P;
  /** The payload `keel hooks test` sends by default. */
  sample(ctx: SampleContext): z.infer<P>;
}

/** Keeps the payload's type attached to the entry, so the table's type carries every payload;
 *  the schema is built once, when first asked for. */
export function defineEvent<P extends z.ZodObject>(def: EventDefinition<P>): EventDefinition<P> {
  return { ...def, payload: lazy(def.payload) };
}

/** Fields every payload carries. */
export const COMMON_PAYLOAD = lazy(() =>
  z.object({
    session_id: z.string(),
    transcript_path: z.string(),
    /** Absolute working directory of the session (the project root). */
    cwd: z.string(),
    permission_mode: z.enum(["default", "acceptEdits", "plan", "bypassPermissions"]),
    /** The model the session asks (Codex sends it on every event). */
    model: z.string().optional(),
    /** The effort level the model applies (Claude Code 2.1.332's shape); absent without one. */
    effort: z.object({ level: z.string() }).optional(),
  }),
);

// Field groups several events share: functions, so that no zod object is built at load.
const toolFields = () => ({
  tool_name: z.string().min(1),
  tool_input: z.record(z.string(), z.unknown()),
  tool_use_id: z.string(),
});
/**
 * One permission update, in Claude Code 2.1.332's shape (its `addRules` variant): the rules an
 * "allow always" answer would add, for the session. Tool names are Keel's here; a dialect
 * renames them (the Claude dialect to Bash, WebFetch, …).
 */
const permissionUpdate = () =>
  z.strictObject({
    type: z.literal("addRules"),
    rules: z.array(z.strictObject({ toolName: z.string(), ruleContent: z.string().optional() })),
    behavior: z.literal("allow"),
    destination: z.literal("session"),
  });
const stopFields = () => ({ stop_hook_active: z.boolean(), last_assistant_message: z.string() });
const trigger = () => z.enum(["manual", "auto"]);
const taskFields = () =>
  z.strictObject({
    task_id: z.string(),
    task_subject: z.string(),
    task_description: z.string(),
    teammate_name: z.string().optional(),
    team_name: z.string().optional(),
  });

const toolCall = (c: SampleContext) => ({
  tool_name: c.tool,
  tool_input: c.toolInput,
  tool_use_id: "call_hooks_test_1",
});
const stopSample = { stop_hook_active: false, last_assistant_message: "All done." };
const taskSample = () => ({
  task_id: "task_1",
  task_subject: "Test",
  task_description: "A test task",
});

/** PreModelSwitch / PostModelSwitch fields (Claude Code 2.1.332's own schema). */
function modelSwitchFields<const S extends readonly [string, ...string[]]>(sources: S) {
  return {
    from_model: z.string(),
    to_model: z.string(),
    requested_model: z.string().nullable(),
    source: z.enum(sources),
    context_tokens: z.number(),
  };
}
const modelSwitchSample = {
  from_model: "deepseek-chat",
  to_model: "deepseek-reasoner",
  requested_model: "deepseek-reasoner",
  source: "command" as const,
  context_tokens: 0,
};

/** Every event Keel knows (Claude Code 2.1.332's 34), in lifecycle order. */
export const EVENT_TABLE = {
  Setup: defineEvent({
    gating: false,
    matcher: "trigger",
    description:
      "Repository set-up, before SessionStart (`keel run --init` / `--maintenance`; trigger: init, maintenance).",
    payload: () => z.strictObject({ trigger: z.enum(["init", "maintenance"]) }),
    sample: () => ({ trigger: "init" as const }),
  }),
  SessionStart: defineEvent({
    gating: false,
    matcher: "source",
    description: "A session starts or resumes (source: startup, resume, clear, compact).",
    payload: () => z.strictObject({ source: z.enum(["startup", "resume", "clear", "compact"]) }),
    sample: () => ({ source: "startup" as const }),
  }),
  InstructionsLoaded: defineEvent({
    gating: false,
    matcher: "load_reason",
    description: "An instruction file (KEEL.md, CLAUDE.md, a rule) was loaded.",
    payload: () =>
      z.strictObject({
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
        parent_file_path: z.string().describe("imports").optional(),
      }),
    sample: (c) => ({
      file_path: `${c.projectDir}/AGENTS.md`,
      memory_type: "Project" as const,
      load_reason: "session_start" as const,
    }),
  }),
  UserPromptSubmit: defineEvent({
    gating: true,
    matcher: "prompt",
    matchMode: "search",
    description: "The user submitted a prompt, before the model sees it.",
    payload: () => z.strictObject({ prompt: z.string() }),
    sample: (c) => ({ prompt: c.prompt }),
  }),
  UserPromptExpansion: defineEvent({
    gating: true,
    matcher: "command_name",
    description:
      "A slash command the user typed expands into a prompt. A block stops the expansion.",
    payload: () =>
      z.strictObject({
        // Always sent: Claude Code 2.1.332's hook input schema requires it.
        expansion_type: z.enum(["slash_command", "mcp_prompt"]),
        command_name: z.string(),
        command_args: z.string(),
        command_source: z.string().describe("project, claude, user; mcp for an MCP prompt"),
        prompt: z.string().describe("expanded"),
      }),
    sample: (c) => ({
      expansion_type: "slash_command" as const,
      command_name: "review",
      command_args: "",
      command_source: "project",
      prompt: c.prompt,
    }),
  }),
  PreToolUse: defineEvent({
    gating: true,
    matcher: "tool_name",
    toolEvent: true,
    description: "The model asked for a tool call, before it runs.",
    payload: () => z.strictObject(toolFields()),
    sample: toolCall,
  }),
  PermissionRequest: defineEvent({
    gating: true,
    matcher: "tool_name",
    toolEvent: true,
    description: "The agent is about to ask the user to approve a tool call.",
    payload: () =>
      z.strictObject({
        ...toolFields(),
        permission_suggestions: z
          .array(permissionUpdate())
          .describe(
            "Claude Code's addRules updates: what the prompt's \"allow always\" would remember, [] when nothing",
          ),
      }),
    // Empty: what would be remembered is the permission layer's to say (allowScope), not the
    // sample's; a real firing carries it.
    sample: (c) => ({ ...toolCall(c), permission_suggestions: [] }),
  }),
  PermissionDenied: defineEvent({
    gating: false,
    matcher: "tool_name",
    toolEvent: true,
    description:
      "A tool call was denied without asking (mode, rule, headless). `retry: true` tells the model it may retry.",
    payload: () => z.strictObject({ ...toolFields(), reason: z.string() }),
    sample: (c) => ({ ...toolCall(c), reason: "denied by the permission mode (keel hooks test)" }),
  }),
  PostToolUse: defineEvent({
    gating: false,
    matcher: "tool_name",
    toolEvent: true,
    description: "A tool returned successfully, before the model sees the result.",
    payload: () =>
      z.strictObject({
        ...toolFields(),
        /** What the tool returned: the text the model will see plus structured details. */
        tool_response: z.unknown(),
        duration_ms: z.number().optional(),
      }),
    sample: (c) => ({ ...toolCall(c), tool_response: c.toolResponse, duration_ms: 1 }),
  }),
  PostToolUseFailure: defineEvent({
    gating: false,
    matcher: "tool_name",
    toolEvent: true,
    description: "A tool failed.",
    payload: () =>
      z.strictObject({
        ...toolFields(),
        error: z.string(),
        is_interrupt: z.boolean().optional(),
        duration_ms: z.number().optional(),
      }),
    sample: (c) => ({
      ...toolCall(c),
      error: "simulated failure (keel hooks test)",
      duration_ms: 1,
    }),
  }),
  PostToolBatch: defineEvent({
    gating: true,
    matcher: null,
    description:
      "Every tool call of one model response has resolved, before the next request. A block stops the turn.",
    payload: () =>
      z.strictObject({
        tool_calls: z
          .array(z.strictObject({ ...toolFields(), tool_response: z.unknown() }))
          .describe("[{tool_name, tool_input, tool_use_id, tool_response}]"),
      }),
    sample: (c) => ({ tool_calls: [{ ...toolCall(c), tool_response: c.toolResponse }] }),
  }),
  Stop: defineEvent({
    gating: true,
    matcher: null,
    blockContinues: true,
    description:
      "The agent finished its turn (final text, no tool calls). A block makes it continue.",
    // How full the context was at the last model request (Qwen Code 0.24 sends these three;
    // only once a request reported its prompt tokens).
    payload: () =>
      z.strictObject({
        ...stopFields(),
        context_usage: z.number().describe("input_tokens / context_limit").optional(),
        context_limit: z.number().describe("the model's context window").optional(),
        input_tokens: z.number().describe("the last request's prompt tokens").optional(),
      }),
    sample: () => stopSample,
  }),
  StopFailure: defineEvent({
    gating: false,
    matcher: "error",
    description: "A turn ended with an error (the model request failed). Output is ignored.",
    payload: () =>
      z.strictObject({
        error: z.string(),
        error_details: z.string().optional(),
        last_assistant_message: z.string().optional(),
      }),
    sample: () => ({
      error: "server_error",
      error_details: "simulated failure (keel hooks test)",
    }),
  }),
  SubagentStart: defineEvent({
    gating: false,
    matcher: "agent_type",
    description: "A sub-agent starts.",
    payload: () => z.strictObject({ agent_id: z.string(), agent_type: z.string() }),
    sample: () => ({ agent_id: "agent_hooks_test_1", agent_type: "general" }),
  }),
  SubagentStop: defineEvent({
    gating: true,
    matcher: "agent_type",
    blockContinues: true,
    description: "A sub-agent finishes. A block makes it continue.",
    payload: () =>
      z.strictObject({ agent_id: z.string(), agent_type: z.string(), ...stopFields() }),
    sample: () => ({ agent_id: "agent_hooks_test_1", agent_type: "general", ...stopSample }),
  }),
  PreCompact: defineEvent({
    gating: true,
    matcher: "trigger",
    description: "Before the conversation is compacted (trigger: manual, auto).",
    // null when none were given, as Claude Code 2.1.332 sends it (its schema: nullable string).
    payload: () =>
      z.strictObject({
        trigger: trigger(),
        custom_instructions: z.string().nullable().describe("null when none"),
      }),
    sample: () => ({ trigger: "manual" as const, custom_instructions: null }),
  }),
  PostCompact: defineEvent({
    gating: false,
    matcher: "trigger",
    description: "After the conversation was compacted.",
    // compact_summary: Claude Code 2.1.332 sends the summary that replaced the conversation.
    payload: () =>
      z.strictObject({
        trigger: trigger(),
        compact_summary: z.string().describe("the summary the conversation was replaced with"),
      }),
    sample: () => ({
      trigger: "manual" as const,
      compact_summary: "The user asked for a greeting; the agent wrote hello.txt.",
    }),
  }),
  PreModelSwitch: defineEvent({
    gating: true,
    matcher: "source",
    firesInKeel: false,
    description: "The session's model is about to change (Claude Code 2.1.332).",
    payload: () => z.strictObject(modelSwitchFields(["command", "picker", "sdk"])),
    sample: () => modelSwitchSample,
  }),
  PostModelSwitch: defineEvent({
    gating: false,
    matcher: "source",
    firesInKeel: false,
    description: "The session's model changed (Claude Code 2.1.332).",
    payload: () =>
      z.strictObject(modelSwitchFields(["command", "picker", "sdk", "auto", "resume"])),
    sample: () => modelSwitchSample,
  }),
  Notification: defineEvent({
    gating: false,
    matcher: "notification_type",
    description: "The agent needs the user (notification_type: permission_prompt, idle_prompt).",
    payload: () =>
      z.strictObject({
        message: z.string(),
        // Claude Code 2.1.332 sends a title only with notifications that have one (none of
        // permission_prompt, idle_prompt); Keel's have none yet.
        title: z.string().optional(),
        notification_type: z.string().describe("permission_prompt, idle_prompt"),
      }),
    sample: () => ({
      message: "Keel needs your permission to use shell",
      notification_type: "permission_prompt",
    }),
  }),
  ConfigChange: defineEvent({
    gating: true,
    matcher: "source",
    description:
      "A settings file changed during the session (/hooks reload). A block keeps the old hooks.",
    payload: () =>
      z.strictObject({
        source: z.enum([
          "user_settings",
          "project_settings",
          "local_settings",
          "policy_settings",
          "skills",
        ]),
        file_path: z.string(),
      }),
    sample: (c) => ({
      source: "project_settings" as const,
      file_path: join(c.projectDir, ".keel", "settings.json"),
    }),
  }),
  CwdChanged: defineEvent({
    gating: false,
    matcher: null,
    description:
      "The shell's working directory changed: after a shell call that ended in another folder of the project, or was put back at the project.",
    payload: () => z.strictObject({ old_cwd: z.string(), new_cwd: z.string() }),
    sample: (c) => ({ old_cwd: c.projectDir, new_cwd: join(c.projectDir, "src") }),
  }),
  FileChanged: defineEvent({
    gating: false,
    matcher: "file_name",
    description:
      "A watched file was added, changed or removed (the matcher's literal file names in the project, or watchPaths from SessionStart/FileChanged output).",
    payload: () =>
      z.strictObject({
        file_path: z.string(),
        event: z.enum(["change", "add", "unlink"]),
      }),
    sample: (c) => ({ file_path: join(c.projectDir, ".env"), event: "change" as const }),
  }),
  DirectoryAdded: defineEvent({
    gating: false,
    matcher: "source",
    firesInKeel: false,
    description:
      "A directory was added to the session (/add-dir; Claude Code 2.1.219). Keel has no /add-dir.",
    payload: () =>
      z.strictObject({
        directory: z.string(),
        source: z.enum(["slash_command", "register_repo_root"]),
      }),
    sample: (c) => ({
      directory: join(c.projectDir, "..", "other"),
      source: "slash_command" as const,
    }),
  }),
  Elicitation: defineEvent({
    gating: true,
    matcher: "mcp_server_name",
    description: "An MCP server asks the user for input; a hook may answer (action, content).",
    payload: () =>
      z.strictObject({
        mcp_server_name: z.string(),
        message: z.string(),
        mode: z.string().optional(),
        url: z.string().optional(),
        elicitation_id: z.string().optional(),
        requested_schema: z.unknown().optional(),
      }),
    sample: (c) => ({
      mcp_server_name: c.tool,
      message: "What is your name?",
      mode: "form",
    }),
  }),
  ElicitationResult: defineEvent({
    gating: true,
    matcher: "mcp_server_name",
    description: "The user answered an MCP elicitation; a hook may override it.",
    payload: () =>
      z.strictObject({
        mcp_server_name: z.string(),
        elicitation_id: z.string().optional(),
        mode: z.string().optional(),
        action: z.enum(["accept", "decline", "cancel"]),
        content: z.unknown().optional(),
      }),
    sample: (c) => ({
      mcp_server_name: c.tool,
      action: "accept" as const,
      content: { name: "Ada" },
    }),
  }),
  WorktreeCreate: defineEvent({
    gating: true,
    matcher: null,
    firesInKeel: false,
    description: "Create an isolated worktree.",
    payload: () => z.strictObject({ name: z.string() }),
    sample: () => ({ name: "hooks-test" }),
  }),
  WorktreeRemove: defineEvent({
    gating: false,
    matcher: null,
    firesInKeel: false,
    description: "Remove a worktree.",
    payload: () => z.strictObject({ worktree_path: z.string() }),
    sample: (c) => ({ worktree_path: join(c.projectDir, "..", "hooks-test") }),
  }),
  TaskCreated: defineEvent({
    gating: true,
    matcher: null,
    firesInKeel: false,
    description: "An agent-team task is created.",
    payload: taskFields,
    sample: taskSample,
  }),
  TaskCompleted: defineEvent({
    gating: true,
    matcher: null,
    firesInKeel: false,
    blockContinues: true,
    description: "An agent-team task is completed.",
    payload: taskFields,
    sample: taskSample,
  }),
  TeammateIdle: defineEvent({
    gating: true,
    matcher: null,
    firesInKeel: false,
    blockContinues: true,
    description: "An agent-team teammate goes idle.",
    payload: () => z.strictObject({ teammate_name: z.string(), team_name: z.string() }),
    sample: () => ({ teammate_name: "helper", team_name: "team" }),
  }),
  MessageDisplay: defineEvent({
    gating: false,
    matcher: null,
    firesInKeel: false,
    description: "Assistant text is displayed (display only).",
    payload: () =>
      z.strictObject({
        turn_id: z.string(),
        message_id: z.string(),
        index: z.number(),
        final: z.boolean(),
        delta: z.string(),
      }),
    sample: () => ({ turn_id: "t1", message_id: "m1", index: 0, final: true, delta: "All done." }),
  }),
  PreSkillShellCommand: defineEvent({
    gating: true,
    matcher: "tool_name",
    firesInKeel: false,
    description:
      "A skill's inline shell command is about to run (Claude Code 2.1.332). Keel's skills run none.",
    payload: () =>
      z.strictObject({
        tool_name: z.string(),
        tool_input: z.strictObject({ command: z.string() }),
        tool_use_id: z.string(),
        command_name: z.string(),
        command_source: z.string().optional(),
        invoked_by: z.enum(["user", "claude", "other"]),
      }),
    sample: () => ({
      tool_name: "Bash",
      tool_input: { command: "git status" },
      tool_use_id: "call_hooks_test_1",
      command_name: "review",
      invoked_by: "user" as const,
    }),
  }),
  SessionEnd: defineEvent({
    gating: false,
    matcher: "reason",
    description: "The session ends (reason: exit, clear, logout, other).",
    payload: () => z.strictObject({ reason: z.enum(["exit", "clear", "logout", "other"]) }),
    sample: () => ({ reason: "exit" as const }),
  }),
};
