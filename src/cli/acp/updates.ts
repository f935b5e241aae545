/**
 * Keel's agent events as ACP `session/update` payloads: titles, kinds and diffs of tool calls,
 * message chunks, plans. Pure (a diff's old text is read by the caller and passed in), so the
 * shapes can be checked without a connection.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { AgentEvent, ToolCallStatus } from "../../agent/index.js";

/** ACP's kind of each built-in tool (editors pick icons and grouping from it). */
const TOOL_KINDS: Record<string, acp.ToolKind> = {
  read_file: "read",
  list_dir: "read",
  glob: "search",
  grep: "search",
  write_file: "edit",
  edit_file: "edit",
  shell: "execute",
  task: "think",
};

/** The kind of tool `name` (MCP and unknown tools: "other"). */
export function toolKind(name: string): acp.ToolKind {
  return TOOL_KINDS[name] ?? "other";
}

/** One line naming the call: the command, the path, the pattern. */
export function toolTitle(name: string, input: Record<string, unknown>): string {
  const arg = [input.command, input.path, input.pattern, input.description].find(
    (v): v is string => typeof v === "string" && v !== "",
  );
  const line = arg === undefined ? name : `${name}: ${arg.split("\n")[0] ?? ""}`;
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/** The file a call reads or writes, as an absolute path (for `locations` and diffs). */
export function toolPath(
  projectDir: string,
  input: Record<string, unknown>,
  resolvePath: (dir: string, p: string) => string,
): string | null {
  return typeof input.path === "string" && input.path !== ""
    ? resolvePath(projectDir, input.path)
    : null;
}

/**
 * The text a write_file or edit_file call would leave in the file, given what it holds now
 * (null: absent). Null when the call is not a file edit or an edit cannot apply (its old string
 * is not there): the editor then gets no diff rather than a wrong one.
 */
export function proposedText(
  name: string,
  input: Record<string, unknown>,
  oldText: string | null,
): string | null {
  if (name === "write_file" && typeof input.content === "string") return input.content;
  if (name !== "edit_file" || oldText === null) return null;
  const { old_string: from, new_string: to, replace_all: all } = input;
  if (typeof from !== "string" || typeof to !== "string" || from === "") return null;
  if (!oldText.includes(from)) return null;
  return all === true ? oldText.split(from).join(to) : oldText.replace(from, () => to);
}

/** A `diff` content item, or none when there is no new text to show. */
export function diffContent(
  path: string | null,
  oldText: string | null,
  newText: string | null,
): acp.ToolCallContent[] {
  if (path === null || newText === null) return [];
  return [{ type: "diff", path, oldText, newText }];
}

/** ACP's status of a finished call. */
export function finishedStatus(status: ToolCallStatus): acp.ToolCallStatus {
  return status === "ok" ? "completed" : "failed";
}

/** What the editor shows of a result (the model sees the whole of it). */
export const RESULT_PREVIEW_CHARS = 8000;

/** A result's text as a content item, cut to RESULT_PREVIEW_CHARS. */
export function textContent(text: string): acp.ToolCallContent {
  const shown =
    text.length > RESULT_PREVIEW_CHARS
      ? `${text.slice(0, RESULT_PREVIEW_CHARS)}\n… (${text.length - RESULT_PREVIEW_CHARS} more characters)`
      : text;
  return { type: "content", content: { type: "text", text: shown } };
}

/** Keel's turn ending as an ACP stop reason (a turn that failed is an error reply instead). */
export function stopReasonOf(
  reason: Extract<AgentEvent, { type: "turn_end" }>["stopReason"],
): acp.StopReason | null {
  switch (reason) {
    case "end":
    case "hook_stop":
      return "end_turn";
    case "aborted":
      return "cancelled";
    case "max_turns":
      return "max_turn_requests";
    // A UserPromptSubmit hook refused the prompt: it never reached the model.
    case "blocked":
      return "refusal";
    default:
      return null;
  }
}

/** Harvested plan state as ACP plan entries (subgoals to do; never sent to the model). */
export function planEntries(plan: { subgoals: string[] }): acp.PlanEntry[] {
  return plan.subgoals.map((content) => ({ content, priority: "medium", status: "pending" }));
}
