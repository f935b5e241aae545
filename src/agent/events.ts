/**
 * The event stream the agent core yields. The TUI and `keel run` only consume these; no loop
 * logic lives in a front end.
 */
import type { HookRunRecord, HookStart } from "../hooks/index.js";
import type { Usage } from "../llm/index.js";
import type { TodoItem } from "../tools/index.js";

/** How a tool call ended, as the model saw it. */
export type ToolCallStatus = "ok" | "error" | "blocked";

/** Everything the agent reports while it works. */
export type AgentEvent =
  | { type: "turn_start"; turn: number; prompt: string }
  | { type: "request_start"; turn: number; request: number }
  | { type: "reasoning_delta"; text: string }
  | { type: "text_delta"; text: string }
  | { type: "tool_call"; id: string; name: string; input: Record<string, unknown> }
  | {
      type: "tool_result";
      id: string;
      name: string;
      input: Record<string, unknown>;
      status: ToolCallStatus;
      /** What the model sees (may be long; front ends preview it). */
      content: string;
      durationMs: number;
    }
  /** Output a running tool printed (shell): front ends show the last lines in its card. */
  | { type: "tool_output"; id: string; text: string }
  /** A hook has started; its `hook_run` follows when it ends (a slow one is visible by name). */
  | { type: "hook_start"; hook: HookStart }
  /** That hook has ended (its `hook_run` comes when the whole firing is decided). */
  | { type: "hook_end"; hook: HookStart }
  | { type: "hook_run"; run: HookRunRecord }
  /** A hook's systemMessage, a stop reason, a repair notice: shown to the user only. */
  | { type: "notice"; level: "info" | "warn" | "error"; text: string }
  /**
   * One conversation model request's usage. `turnCostUsd` is that request's cost (despite its
   * name: a turn makes one request per tool round); `costUsd` is the agent's running total since
   * it was created, hook, harvest, sub-agent and compaction calls included.
   */
  | { type: "usage"; usage: Usage; costUsd: number; turnCostUsd: number }
  | {
      type: "compacted";
      beforeMessages: number;
      afterMessages: number;
      trigger?: "manual" | "auto";
      /** Prompt tokens of the last request before the compaction. */
      promptTokensBefore?: number;
      /** What the summary request cost. */
      costUsd?: number;
    }
  /** The model's todo list as it just wrote it whole (todo_write call `id`): a live checklist. */
  | { type: "todos"; id: string; todos: TodoItem[] }
  /** Something a sub-agent did, inside the `task` call `toolCallId` of its parent. */
  | {
      type: "subagent";
      toolCallId: string;
      agentId: string;
      agentType: string;
      description: string;
      event: AgentEvent;
    }
  /** Plan state harvested from the last reply's reasoning (never sent to the model). */
  | {
      type: "harvest";
      plan: {
        subgoals: string[];
        hypotheses: string[];
        uncertainties: string[];
        rejectedPaths: string[];
      };
      costUsd: number;
    }
  /** A branched request: its samples and the one picked (only that one enters the log). */
  | {
      type: "branch";
      samples: {
        index: number;
        temperature: number;
        uncertainties: number | null;
        answerChars: number;
        costUsd: number;
      }[];
      failed: number;
      picked: number;
      costUsd: number;
    }
  /** Project memory read at session start (or re-read after a compaction). */
  | {
      type: "memory_loaded";
      files: {
        path: string;
        label: string;
        scope: "user" | "project";
        bytes: number;
        importedBy: string | null;
      }[];
      skipped: { path: string; reason: string; importedBy: string | null }[];
    }
  | {
      type: "turn_end";
      turn: number;
      /** The final assistant text of the turn. */
      text: string;
      stopReason: "end" | "blocked" | "hook_stop" | "max_turns" | "aborted" | "error";
    }
  | { type: "error"; message: string };

/** The user's answer to a permission prompt. */
export type PermissionAnswer = "allow_once" | "allow_always" | "deny";

/** A request for the user's approval of one tool call. */
export interface PermissionPrompt {
  toolName: string;
  input: Record<string, unknown>;
  /** One line describing the call (the command, the path). */
  summary: string;
  reason: string;
  /** What an "allow always" answer would allow, in words; null when the answer is not
   *  remembered (a protected path, a custom command's shell): "always" then allows once. Set by
   *  the code that decides what an answer remembers, so the prompt cannot promise otherwise. */
  always: string | null;
}
