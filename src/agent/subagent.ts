/**
 * The AgentRunner for agent hooks (docs/hooks.md "HTTP, prompt and agent hooks"): a read-only sub-agent with read_file, glob,
 * grep and list_dir plus `submit_verdict {ok, reason}`, run on the session's one turn loop
 * (subagent-core.ts). It can never write or run shell; its tool calls fire no PreToolUse (a hook
 * checking a hook's verifier would recurse); it fires SubagentStart / SubagentStop; nothing it
 * exchanges enters the parent's log. An agent hook fired from inside a sub-agent is refused.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { z } from "zod";
import type { AgentRunner, HookEngine } from "../hooks/index.js";
import type { ChatClient, Usage } from "../llm/index.js";
import type { Tool } from "../tools/index.js";
import {
  type AnyTool,
  createBuiltinTools,
  READ_ONLY_TOOL_NAMES,
  toParameters,
} from "../tools/index.js";
import type { HookSessionInfo } from "./hook-adapter/fire.js";
import { createNullHookEngine } from "./hook-adapter/null-engine.js";
import type { DispatchContext } from "./pipeline/index.js";
import { createSubagent, runSubagent } from "./subagent-core.js";

/** The name of the answer tool. */
export const VERDICT_TOOL = "submit_verdict";

const verdictSchema = z.strictObject({
  ok: z.boolean().describe("Whether the condition holds."),
  reason: z.string().describe("Why; what the agent must fix when ok is false."),
});
type Verdict = z.infer<typeof verdictSchema>;

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
  clock?: () => number;
  /** The session's permission rules: a deny rule holds inside the hook's sub-agent too. */
  rules?: DispatchContext["rules"];
}

const insideSubagent = new AsyncLocalStorage<boolean>();

/** Creates the runner. It rejects (never invents a verdict) when the sub-agent gives no answer. */
export function createAgentRunner(opts: AgentRunnerOptions): AgentRunner {
  return async (req) => {
    if (insideSubagent.getStore() === true) {
      throw new Error("agent hooks do not run inside a hook sub-agent");
    }
    return insideSubagent.run(true, () => verify(opts, req));
  };
}

/** The verdict tool: records the answer; its successful call ends the sub-agent's turn. */
function verdictTool(box: { verdict: Verdict | null }): Tool<Verdict> {
  return {
    name: VERDICT_TOOL,
    description:
      "Give your final answer and end: ok=true if the condition holds, ok=false (with the reason the agent must act on) if not.",
    schema: verdictSchema,
    parameters: toParameters(verdictSchema),
    kind: "read",
    primaryArg: () => undefined,
    run: async (input) => {
      box.verdict = input;
      return { content: "Verdict recorded.", isError: false };
    },
  };
}

async function verify(
  opts: AgentRunnerOptions,
  req: Parameters<AgentRunner>[0],
): Promise<{ ok: boolean; reason: string }> {
  const all = opts.createTools?.(req.cwd) ?? createBuiltinTools({ cwd: req.cwd });
  const box: { verdict: Verdict | null } = { verdict: null };
  const tools = [...all.filter((t) => READ_ONLY_TOOL_NAMES.includes(t.name)), verdictTool(box)];
  const sub = createSubagent(
    {
      client: opts.client,
      hooks: opts.hooks(),
      info: opts.info,
      clock: opts.clock ?? Date.now,
      askPermission: undefined,
      autoApprove: false,
      onUsage: (model, usage) => opts.onUsage?.(model, usage),
      ...(opts.rules ? { rules: opts.rules } : {}),
    },
    {
      agentType: "hook-agent",
      systemPrompt: SUBAGENT_SYSTEM,
      tools,
      model: req.model ?? opts.model,
      maxTurns: req.maxTurns,
      toolHooks: createNullHookEngine(),
      finish: {
        take: () => box.verdict?.reason ?? null,
        reset: () => {
          box.verdict = null;
        },
      },
    },
  );
  let prompt = req.prompt;
  let last = "";
  let error: string | null = null;
  // One nudge when it ends its turn without a verdict, as a person would ask again.
  for (let attempt = 0; attempt < 2 && box.verdict === null; attempt++) {
    if (req.signal.aborted) throw new Error("the hook sub-agent was cancelled");
    const gen = runSubagent(sub, prompt, req.signal, { start: attempt === 0 });
    let r = await gen.next();
    while (!r.done) r = await gen.next();
    last = r.value.text || last;
    error = r.value.error;
    if (r.value.stopReason !== "end") break;
    prompt = `Answer now by calling ${VERDICT_TOOL} with {"ok": boolean, "reason": string}.`;
  }
  if (box.verdict !== null) return box.verdict;
  if (req.signal.aborted) throw new Error("the hook sub-agent was cancelled");
  const why = error ? `; ${error}` : last ? `; it said: ${last.slice(0, 200)}` : "";
  throw new Error(
    `the hook sub-agent ended without calling ${VERDICT_TOOL} (after ${req.maxTurns} turns max)${why}`,
  );
}
