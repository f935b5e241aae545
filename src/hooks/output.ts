/**
 * The JSON a hook may print on stdout (docs/hooks.md "JSON output"), parsed once with a schema. camelCase and
 * the snake_case spellings of cagent are both accepted; a field of the wrong type is reported
 * by name.
 */
import { z } from "zod";
import { isRecord, lazy } from "../base/index.js";

/** The hook output schema (camelCase; snake_case is renamed before parsing), built on first
 *  use: `keel hooks list` and sessions whose hooks print no JSON never build it. */
const hookOutputSchema = lazy(() => {
  const JsonObject = z.record(z.string(), z.unknown());
  const Text = z.string().nullish();
  /** updatedToolOutput may be any JSON; it reaches the model as text. */
  const ToolOutput = z
    .unknown()
    .transform((v) =>
      v === null || v === undefined ? undefined : typeof v === "string" ? v : JSON.stringify(v),
    );

  const HookSpecificSchema = z.object({
    hookEventName: Text,
    permissionDecision: z.enum(["allow", "deny", "ask", "defer"]).nullish(),
    permissionDecisionReason: Text,
    updatedInput: JsonObject.nullish(),
    /** Gemini CLI: merged into the tool's arguments (its spelling of updatedInput). */
    tool_input: JsonObject.nullish(),
    additionalContext: Text,
    updatedToolOutput: ToolOutput.optional(),
    /** Claude Code's newer fields (kept for the agent, see RunVerdict.extras). */
    sessionTitle: Text,
    watchPaths: z.array(z.string()).nullish(),
    updatedMCPToolOutput: z.unknown().optional(),
    retry: z.boolean().nullish(),
    suppressOriginalPrompt: z.boolean().nullish(),
    initialUserMessage: Text,
    reloadSkills: z.boolean().nullish(),
    worktreePath: Text,
    displayContent: Text,
    /** Elicitation's answer. */
    action: z.enum(["accept", "decline", "cancel"]).nullish(),
    content: z.unknown().optional(),
    /** PermissionRequest's answer. */
    decision: z
      .object({
        behavior: z.enum(["allow", "deny", "ask"]),
        updatedInput: JsonObject.nullish(),
        message: Text,
      })
      .nullish(),
  });

  return z.object({
    continue: z.boolean().nullish(),
    stopReason: Text,
    suppressOutput: z.boolean().nullish(),
    systemMessage: Text,
    decision: z.enum(["block", "approve", "allow", "deny", "ask"]).nullish(),
    reason: Text,
    /** Tutorial style: top-level updatedInput / additionalContext. */
    updatedInput: JsonObject.nullish(),
    additionalContext: Text,
    hookSpecificOutput: HookSpecificSchema.nullish(),
    /** Claude Code: a terminal escape sequence the agent writes for the hook (never raw here). */
    terminalSequence: Text,
  });
});

/** A parsed hook output. */
export type HookOutput = z.infer<ReturnType<typeof hookOutputSchema>>;

/** What stdout held: nothing structured, a valid output, or JSON that is wrong. */
export type ParsedOutput =
  | { kind: "none" }
  | { kind: "json"; output: HookOutput }
  | { kind: "invalid"; message: string };

const SNAKE: Readonly<Record<string, string>> = {
  stop_reason: "stopReason",
  suppress_output: "suppressOutput",
  system_message: "systemMessage",
  updated_input: "updatedInput",
  additional_context: "additionalContext",
  hook_specific_output: "hookSpecificOutput",
  hook_event_name: "hookEventName",
  permission_decision: "permissionDecision",
  permission_decision_reason: "permissionDecisionReason",
  updated_tool_output: "updatedToolOutput",
  session_title: "sessionTitle",
  watch_paths: "watchPaths",
  updated_mcp_tool_output: "updatedMCPToolOutput",
};

function camelize(
  obj: Record<string, unknown>,
  renamed: { used: boolean },
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj)) {
    const camel = SNAKE[key];
    if (camel !== undefined) renamed.used = true;
    const target = camel ?? key;
    // The camelCase spelling wins when a hook prints both.
    if (camel !== undefined && target in obj) continue;
    out[target] =
      target === "hookSpecificOutput" && isRecord(value) ? camelize(value, renamed) : value;
  }
  return out;
}

const CAMEL_TO_SNAKE = new Map(Object.entries(SNAKE).map(([s, c]) => [c, s]));

/** Whether text is meant as JSON output: trimmed, it starts with `{` and ends with `}`. */
export function looksLikeJson(text: string): boolean {
  const t = text.trim();
  return t.startsWith("{") && t.endsWith("}");
}

/** Parses a hook's stdout. Plain text (or empty) is `none`; broken JSON is `invalid`. */
export function parseHookOutput(stdout: string): ParsedOutput {
  if (!looksLikeJson(stdout)) return { kind: "none" };
  let value: unknown;
  try {
    value = JSON.parse(stdout);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { kind: "invalid", message: `stdout is not valid JSON: ${why}` };
  }
  if (!isRecord(value)) return { kind: "invalid", message: "stdout JSON is not an object" };
  const renamed = { used: false };
  const parsed = hookOutputSchema().safeParse(camelize(value, renamed));
  if (parsed.success) return { kind: "json", output: parsed.data };
  const issue = parsed.error.issues[0];
  const path = (issue?.path ?? [])
    .map((p) => String(p))
    .map((p) => (renamed.used ? (CAMEL_TO_SNAKE.get(p) ?? p) : p))
    .join(".");
  return {
    kind: "invalid",
    message: `hook output field "${path}" is invalid: ${issue?.message ?? "wrong type"}; output ignored`,
  };
}
