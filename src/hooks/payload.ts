/** Building Keel-native payloads (for `keel hooks test` and the agent). */
import { z } from "zod";
import { EVENT_TABLE } from "./event-table.js";
import type { EventPayload, HookEventName, ToolInput } from "./events.js";

/** What a synthetic payload is built from; unset fields keep the event table's sample. */
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

/**
 * Which option can fill which payload field, in order of preference. An option fills a field
 * of the event's payload that accepts its value (SessionStart's `source` takes `source`,
 * ConfigChange's takes `configSource`); a field no option fills keeps the event's sample.
 */
const FIELD_OPTIONS: Readonly<Record<string, readonly (keyof PayloadOptions)[]>> = {
  tool_use_id: ["toolUseId"],
  error: ["error"],
  source: ["source", "configSource"],
  reason: ["reason"],
  file_path: ["filePath"],
  command_name: ["commandName"],
  mcp_server_name: ["serverName"],
  trigger: ["trigger"],
  message: ["message"],
  notification_type: ["notificationType"],
  last_assistant_message: ["lastAssistantMessage"],
  stop_hook_active: ["stopHookActive"],
  agent_id: ["agentId"],
  agent_type: ["agentType"],
};

/** A complete Keel-native payload for `event` (Keel tool names and input fields): the event
 *  table's sample (event-table.ts) with the fields the options give. */
export function buildPayload<E extends HookEventName>(event: E, o: PayloadOptions): EventPayload<E>;
export function buildPayload(event: HookEventName, o: PayloadOptions): object {
  const common = {
    session_id: o.sessionId ?? "keel-hooks-test",
    transcript_path: o.transcriptPath ?? "",
    cwd: o.projectDir,
    permission_mode: o.permissionMode ?? "default",
    hook_event_name: event,
  };
  const entry = EVENT_TABLE[event];
  const sample: Record<string, unknown> = entry.sample({
    projectDir: o.projectDir,
    tool: o.tool ?? "shell",
    toolInput: o.input ?? {},
    toolResponse: o.toolResponse ?? "",
    prompt: o.prompt ?? "",
  });
  return { ...common, ...withOptions(sample, entry.payload().shape, o) };
}

/** The fields of `fields` (a payload's zod shape) the options fill, over `base`. */
function withOptions(
  base: Record<string, unknown>,
  fields: Readonly<Record<string, z.ZodType>>,
  o: PayloadOptions,
): Record<string, unknown> {
  const out = { ...base };
  for (const [field, schema] of Object.entries(fields)) {
    // A list of objects (PostToolBatch's tool calls): each element takes the options too.
    const items = out[field];
    if (
      Array.isArray(items) &&
      schema instanceof z.ZodArray &&
      schema.element instanceof z.ZodObject
    ) {
      const shape = schema.element.shape;
      out[field] = items.map((item: Record<string, unknown>) => withOptions(item, shape, o));
      continue;
    }
    for (const option of FIELD_OPTIONS[field] ?? []) {
      const value = o[option];
      if (value !== undefined && schema.safeParse(value).success) {
        out[field] = value;
        break;
      }
    }
  }
  return out;
}
