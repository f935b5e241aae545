/**
 * The built-in `task` tool (`Task` in the Claude dialect): hands one self-contained job to a
 * sub-agent with its own conversation and prefix, read-only tools by default, bounded requests.
 * Its final text is the tool result; its cost is the session's; its progress streams to the
 * front ends as `subagent` events inside the call.
 */
import { z } from "zod";
import type { AnyTool, Tool, ToolResult } from "../tools/index.js";
import { READ_ONLY_TOOL_NAMES, toParameters } from "../tools/index.js";
import type { AgentFile } from "./agent-files.js";
import type { AgentEvent } from "./events.js";
import type { StreamingRun } from "./pipeline/index.js";
import { createSubagent, runSubagent, type SubagentParent } from "./subagent-core.js";

/** The tool's name as the model sees it. */
export const TASK_TOOL = "task";

/** Model requests a task sub-agent may make by default. */
export const DEFAULT_SUBAGENT_MAX_TURNS = 20;

/** The task tool's arguments. */
export const taskSchema = z.strictObject({
  description: z.string().min(1).describe("A short (3-7 words) description of the task."),
  prompt: z
    .string()
    .min(1)
    .describe(
      "The complete task for the sub-agent: what to find or check, where to look, and what to report back. It sees nothing of this conversation.",
    ),
  subagent_type: z
    .string()
    .min(1)
    .optional()
    .describe("Which kind of sub-agent to use (see the list); leave out for the general one."),
});
export type TaskInput = z.infer<typeof taskSchema>;

const DESCRIPTION = `Hand a self-contained job (a search across the project, an investigation, a check) to a sub-agent and get its final report back as this tool's result.
- The sub-agent starts fresh: it sees only your prompt, so say everything it needs.
- It can only use read-only tools (read_file, glob, grep, list_dir) unless the user configured more.
- Use it for broad searches whose intermediate results you do not need to see; read a known file yourself.`;

/** The description, with the agent files listed (sorted by name, one line each) when any. */
export function taskToolDescription(agents: readonly AgentFile[]): string {
  if (agents.length === 0) return DESCRIPTION;
  const lines = agents.map((a) => `- ${a.name}: ${a.description}`);
  return `${DESCRIPTION}\n\nSub-agent types (subagent_type):\n${lines.join("\n")}`;
}

const SUBAGENT_SYSTEM = `You are a sub-agent of Keel, a coding agent. The main agent gave you one task. Work only on that task with the tools you have; you cannot ask questions. When done, answer with a concise final report: what you found, with file paths (and line numbers where useful). Your final message is returned to the main agent as the result of its task; it sees nothing else you did.`;

/** Said after an agent file's own prompt: how its answer reaches the main agent. */
const AGENT_FILE_FOOTER = `You run as a sub-agent of Keel for one task and cannot ask questions. Your final message is returned to the main agent as the result of its task; it sees nothing else you did.`;

/** What hooks need to know about the task tool (its descriptor beside the built-ins'). */
export const TASK_HOOK_FACTS = {
  name: TASK_TOOL,
  primaryArg: "description",
  inputFields: ["description", "prompt", "subagent_type"],
  pathFields: [],
} as const;

/** How task sub-agents are built (from settings). */
export interface TaskPolicy {
  /** Names of the session's tools the sub-agent may use (default: the read-only ones). */
  tools?: readonly string[];
  maxTurns?: number;
  model?: string;
  /** Agent files (agent-files.ts), chosen by the call's `subagent_type`. */
  agents?: readonly AgentFile[];
}

/** The tool descriptor (its spec goes into the prefix; dispatch runs it via `runTask`). */
export function createTaskTool(agents: readonly AgentFile[] = []): Tool<TaskInput> {
  return {
    name: TASK_TOOL,
    description: taskToolDescription(agents),
    schema: taskSchema,
    parameters: toParameters(taskSchema),
    kind: "read",
    primaryArg: (input) => input.description,
    run: async () => ({
      content: "task: sub-agents are not available in this context.",
      isError: true,
    }),
  };
}

/** The streaming run dispatch uses for `task` calls (the input is validated by then). */
export function taskStreaming(
  parent: SubagentParent & { tools: readonly AnyTool[]; model: string },
  policy: TaskPolicy,
): StreamingRun {
  return (input, call) => runTask(parent, policy, input as TaskInput, call);
}

/** Runs one task call as a sub-agent on the turn loop; yields its events wrapped as `subagent`. */
export async function* runTask(
  parent: SubagentParent & { tools: readonly AnyTool[]; model: string },
  policy: TaskPolicy,
  input: TaskInput,
  call: { id: string; signal: AbortSignal },
): AsyncGenerator<AgentEvent, ToolResult> {
  const file =
    input.subagent_type === undefined
      ? undefined
      : policy.agents?.find((a) => a.name === input.subagent_type);
  if (input.subagent_type !== undefined && file === undefined) {
    const known = (policy.agents ?? []).map((a) => a.name);
    return {
      content: `task: no sub-agent type "${input.subagent_type}". Available: ${known.join(", ") || "none (leave subagent_type out)"}.`,
      isError: true,
    };
  }
  const allowed = file?.tools ?? policy.tools ?? READ_ONLY_TOOL_NAMES;
  // Never the task tool itself: a sub-agent does not spawn sub-agents.
  const tools = parent.tools.filter((t) => t.name !== TASK_TOOL && allowed.includes(t.name));
  const agent = createSubagent(parent, {
    agentType: file?.name ?? "task",
    systemPrompt: file
      ? `${file.prompt || SUBAGENT_SYSTEM}\n\n${AGENT_FILE_FOOTER}`
      : SUBAGENT_SYSTEM,
    tools,
    model: file?.model ?? policy.model ?? parent.model,
    maxTurns: policy.maxTurns ?? DEFAULT_SUBAGENT_MAX_TURNS,
  });
  const wrap = (event: AgentEvent): AgentEvent => ({
    type: "subagent",
    toolCallId: call.id,
    agentId: agent.id,
    agentType: agent.type,
    description: input.description,
    event,
  });
  const gen = runSubagent(agent, input.prompt, call.signal);
  let r = await gen.next();
  while (!r.done) {
    yield wrap(r.value);
    r = await gen.next();
  }
  const out = r.value;
  const details = {
    agentId: agent.id,
    agentType: agent.type,
    requests: out.requests,
    costUsd: out.costUsd,
    stopReason: out.stopReason,
  };
  const denied = agent.deniedByUser();
  if (denied !== null) {
    return {
      content: `The user denied ${denied} inside the sub-agent, which stopped. Stop and wait for the user to say how to go on.`,
      isError: true,
      details,
      stopTurn: `You denied ${denied} in a sub-agent; say how to go on.`,
    };
  }
  if (out.stopReason === "end" && out.text.trim() !== "") {
    return { content: out.text, isError: false, details };
  }
  const why =
    out.stopReason === "max_turns"
      ? `it reached its limit of ${policy.maxTurns ?? DEFAULT_SUBAGENT_MAX_TURNS} model requests`
      : out.stopReason === "aborted"
        ? "it was interrupted"
        : out.stopReason === "end"
          ? "it gave no answer"
          : (out.error ?? `it stopped (${out.stopReason})`);
  const partial = out.text.trim() ? `\nIts last message:\n${out.text}` : "";
  return { content: `The sub-agent did not finish: ${why}.${partial}`, isError: true, details };
}
