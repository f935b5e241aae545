/**
 * The AgentRunner for agent hooks (design §2.5): a read-only sub-agent with read_file, glob,
 * grep and list_dir plus `submit_verdict {ok, reason}`. It can never write or run shell; its
 * tool calls fire no PreToolUse; it fires SubagentStart / SubagentStop; nothing it exchanges
 * enters the parent's log. An agent hook fired from inside a sub-agent is refused (no recursion).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { AgentRunner, HookEngine } from "../hooks/types.js";
import { stableStringify } from "../llm/stable-json.js";
import type { ChatClient, ChatMessage, ToolCall, Usage } from "../llm/types.js";
import {
  type AnyTool,
  createBuiltinTools,
  READ_ONLY_TOOL_NAMES,
  toolSpecs,
  validateToolInput,
} from "../tools/registry.js";
import { fireHook, type HookSessionInfo, isVeto, messageOf, vetoReason } from "./hook-fire.js";
import { renderMessage } from "./render.js";

/** The name of the answer tool. */
export const VERDICT_TOOL = "submit_verdict";

const verdictSchema = z.strictObject({
  ok: z.boolean(),
  reason: z.string(),
});

const VERDICT_SPEC = {
  type: "function" as const,
  function: {
    name: VERDICT_TOOL,
    description:
      "Give your final answer and end: ok=true if the condition holds, ok=false (with the reason the agent must act on) if not.",
    parameters: {
      type: "object",
      properties: {
        ok: { type: "boolean", description: "Whether the condition holds." },
        reason: { type: "string", description: "Why; what the agent must fix when ok is false." },
      },
      required: ["ok", "reason"],
      additionalProperties: false,
    },
  },
};

const SUBAGENT_SYSTEM = `You are a verifier run by a hook of the Keel coding agent. You can only read the project: read_file, glob, grep and list_dir. You cannot change files or run commands; do not try. Investigate what the task asks, then call ${VERDICT_TOOL} exactly once with {"ok": boolean, "reason": string}.`;

/** Options of `createAgentRunner`. */
export interface AgentRunnerOptions {
  client: ChatClient;
  model: string;
  /** The engine SubagentStart / SubagentStop fire on (late-bound: the engine holds this runner). */
  hooks: () => HookEngine;
  info: HookSessionInfo;
  /** Tools for a directory (default: the read-only built-ins). */
  createTools?: (cwd: string) => readonly AnyTool[];
  /** Called with each request's usage. Must not throw. */
  onUsage?: (model: string, usage: Usage) => void;
}

const insideSubagent = new AsyncLocalStorage<boolean>();

/** Creates the runner. It rejects (never invents a verdict) when the sub-agent gives no answer. */
export function createAgentRunner(opts: AgentRunnerOptions): AgentRunner {
  return async (req) => {
    if (insideSubagent.getStore() === true) {
      throw new Error("agent hooks do not run inside a hook sub-agent");
    }
    return insideSubagent.run(true, () => runSubagent(opts, req));
  };
}

async function runSubagent(
  opts: AgentRunnerOptions,
  req: Parameters<AgentRunner>[0],
): Promise<{ ok: boolean; reason: string }> {
  const model = req.model ?? opts.model;
  const all = opts.createTools?.(req.cwd) ?? createBuiltinTools({ cwd: req.cwd });
  const tools = all.filter((t) => READ_ONLY_TOOL_NAMES.includes(t.name));
  const specs = stableStringify([...toolSpecs(tools), VERDICT_SPEC]);
  const agentId = randomUUID();
  const agentType = "hook-agent";
  const engine = opts.hooks();
  await drainAll(
    fireHook(engine, opts.info, "SubagentStart", { agent_id: agentId, agent_type: agentType }),
  );

  const messages: string[] = [
    renderMessage({ role: "system", content: SUBAGENT_SYSTEM }),
    renderMessage({ role: "user", content: req.prompt }),
  ];
  let nudged = false;
  let stopBlocks = 0;
  let lastText = "";
  for (let turn = 0; turn < req.maxTurns; turn++) {
    if (req.signal.aborted) throw new Error("the hook sub-agent was cancelled");
    const reply = await ask(opts, { model, messages, tools: specs, signal: req.signal });
    messages.push(renderMessage(reply));
    lastText = reply.content ?? lastText;
    const calls = reply.tool_calls ?? [];
    if (calls.length === 0) {
      if (nudged) break;
      nudged = true;
      messages.push(
        renderMessage({
          role: "user",
          content: `Answer now by calling ${VERDICT_TOOL} with {"ok": boolean, "reason": string}.`,
        }),
      );
      continue;
    }
    let verdict: { ok: boolean; reason: string } | null = null;
    for (const call of calls) {
      const result = await runCall(tools, call, req.signal);
      if (result.verdict && verdict === null) {
        const stop = await drainAll(
          fireHook(engine, opts.info, "SubagentStop", {
            agent_id: agentId,
            agent_type: agentType,
            stop_hook_active: stopBlocks > 0,
            last_assistant_message: result.verdict.reason,
          }),
        );
        if (isVeto(stop) && stopBlocks < 8) {
          stopBlocks += 1;
          messages.push(
            renderMessage({
              role: "tool",
              tool_call_id: call.id,
              content: `Not accepted yet: ${vetoReason(stop)}`,
            }),
          );
          continue;
        }
        verdict = result.verdict;
      }
      messages.push(
        renderMessage({ role: "tool", tool_call_id: call.id, content: result.content }),
      );
    }
    if (verdict) return verdict;
  }
  throw new Error(
    `the hook sub-agent ended without calling ${VERDICT_TOOL} (after ${req.maxTurns} turns max)${lastText ? `; it said: ${lastText.slice(0, 200)}` : ""}`,
  );
}

async function drainAll<R>(gen: AsyncGenerator<unknown, R>): Promise<R> {
  for (;;) {
    const r = await gen.next();
    if (r.done) return r.value;
  }
}

async function ask(
  opts: AgentRunnerOptions,
  req: { model: string; messages: string[]; tools: string; signal: AbortSignal },
): Promise<ChatMessage> {
  for await (const ev of opts.client.stream({
    model: req.model,
    messages: req.messages.slice(),
    tools: req.tools,
    signal: req.signal,
  })) {
    if (ev.type === "error") throw new Error(`the hook sub-agent's model failed: ${ev.message}`);
    if (ev.type === "done") {
      if (ev.usage) opts.onUsage?.(req.model, ev.usage);
      const out: ChatMessage = { role: "assistant", content: ev.message.content ?? "" };
      // Kept even when empty: a thinking-mode tool turn must pass reasoning_content back.
      if (ev.message.reasoning_content !== undefined) {
        out.reasoning_content = ev.message.reasoning_content;
      }
      if (ev.message.tool_calls?.length) {
        out.tool_calls = ev.message.tool_calls;
        if (!ev.message.content) out.content = null;
      }
      return out;
    }
  }
  throw new Error("the hook sub-agent's model stream ended without an answer");
}

async function runCall(
  tools: readonly AnyTool[],
  call: ToolCall,
  signal: AbortSignal,
): Promise<{ content: string; verdict?: { ok: boolean; reason: string } }> {
  const name = call.function.name;
  if (name === VERDICT_TOOL) {
    let raw: unknown;
    try {
      raw = JSON.parse(call.function.arguments || "{}");
    } catch {
      return { content: `${VERDICT_TOOL}: the arguments are not valid JSON.` };
    }
    const parsed = verdictSchema.safeParse(raw);
    if (!parsed.success) {
      return { content: `${VERDICT_TOOL}: expected {"ok": boolean, "reason": string}.` };
    }
    return { content: "Verdict recorded.", verdict: parsed.data };
  }
  const tool = tools.find((t) => t.name === name);
  if (tool === undefined) {
    return {
      content: `Refused: ${name} is not available to a hook sub-agent. It can only read (${READ_ONLY_TOOL_NAMES.join(", ")}) and must answer with ${VERDICT_TOOL}.`,
    };
  }
  const valid = validateToolInput(tool, call.function.arguments);
  if (!valid.ok) return { content: valid.error };
  try {
    return { content: (await tool.run(valid.input, { signal })).content };
  } catch (err) {
    return { content: `${name} failed: ${messageOf(err)}` };
  }
}
