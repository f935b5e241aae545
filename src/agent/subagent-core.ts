/**
 * Sub-agents on the one turn loop (docs/architecture.md "The cache-first agent"): a sub-agent is an AgentCore of its own — its own
 * prefix (system prompt + tools), its own in-memory log — driven by the same `runTurn` as the
 * session, with another tool policy. Hooks fire inside with `agent_id` and `agent_type`; its
 * model calls are accounted to the parent session.
 */
import { randomUUID } from "node:crypto";
import type { HookEngine } from "../hooks/index.js";
import type { ChatClient, EffortLevel, Usage } from "../llm/index.js";
import type { AnyTool } from "../tools/index.js";
import { toolSpecs } from "../tools/index.js";
import { AgentCore, type FinishSignal } from "./core.js";
import type { AgentEvent } from "./events.js";
import { effortLevelOf, fireHook, type HookSessionInfo } from "./hook-adapter/fire.js";
import { type DispatchContext, SessionCwd } from "./pipeline/index.js";
import { ImmutablePrefix } from "./prefix.js";
import { prepareToolSpecs } from "./repair/index.js";
import { runTurn } from "./turn.js";
import type { AskPermission, SessionPort } from "./types.js";

/** What a sub-agent inherits from the session that starts it. */
export interface SubagentParent {
  client: ChatClient;
  /** The engine SubagentStart / SubagentStop (and the stop of its turn) fire on. */
  hooks: HookEngine;
  info: HookSessionInfo;
  clock: () => number;
  askPermission: AskPermission | undefined;
  autoApprove: boolean;
  /** The user ran without the project's untrusted hooks (DispatchContext.withoutProjectHooks). */
  withoutProjectHooks?: boolean;
  /** Each model call's usage, for the parent's totals and usage log. Must not throw. */
  onUsage(model: string, usage: Usage): void;
  thinking?: "enabled" | "disabled";
  /** The session's effort level now (a sub-agent asks with the same). */
  effort?(): EffortLevel | null;
  /** The session's permission rules: they hold inside sub-agents too. */
  rules?: DispatchContext["rules"];
  /** The session's checkpoint step: a sub-agent's writes are kept under the parent's current
   *  turn, so rewinding that turn puts them back too (src/agent/rewind.ts). */
  checkpoint?: DispatchContext["checkpoint"];
}

/** What kind of sub-agent to build. */
export interface SubagentSpec {
  agentType: string;
  systemPrompt: string;
  tools: readonly AnyTool[];
  model: string;
  /** Model requests allowed for its one task. */
  maxTurns: number;
  /** Engine for its tool events (PreToolUse…); default: the parent's. */
  toolHooks?: HookEngine;
  /** A tool whose successful call ends its turn (a hook sub-agent's verdict). */
  finish?: FinishSignal;
}

/** A built sub-agent: its core and identity. */
export interface Subagent {
  id: string;
  type: string;
  core: AgentCore;
  /** The call the user answered "no" to at a permission prompt, or null: the parent's turn
   *  then stops too, as it would for a "no" to its own call. */
  deniedByUser(): string | null;
}

/** Builds a sub-agent core. Nothing it exchanges enters the parent's log. */
export function createSubagent(parent: SubagentParent, spec: SubagentSpec): Subagent {
  const id = `agent_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
  // Its own shell directory, starting where the parent's shell is: its `cd` moves only itself
  // (its CwdChanged carries its agent_id); it is not recorded, since its log is not kept.
  const shellCwd = new SessionCwd(parent.info.projectDir, {
    history: [{ turn: 0, cwd: parent.info.cwd?.() ?? parent.info.projectDir }],
  });
  const info: HookSessionInfo = {
    ...parent.info,
    cwd: () => shellCwd.get(),
    agent: { id, type: spec.agentType },
    // Its own model and what the effort becomes for it (its core is built below).
    model: () => core.model,
    effort: () => effortLevelOf(core.effort()),
  };
  const prepared = prepareToolSpecs(toolSpecs(spec.tools));
  const prefix = new ImmutablePrefix({ systemPrompt: spec.systemPrompt, tools: prepared.specs });
  const session: SessionPort = {
    id: parent.info.sessionId,
    transcriptPath: parent.info.transcriptPath,
    messages: [],
    appendMessage: () => {},
    recordCompaction: () => {},
    appendUsage: (entry) => parent.onUsage(entry.model, entry.usage),
    appendHookRun: () => {},
  };
  const toolHooks = spec.toolHooks ?? parent.hooks;
  let denied: string | null = null;
  const ask = parent.askPermission;
  const askPermission: AskPermission | undefined =
    ask &&
    (async (prompt, opts) => {
      const answer = await ask(prompt, opts);
      if (answer === "deny") denied = prompt.summary;
      return answer;
    });
  const effort = parent.effort?.() ?? undefined;
  const core = new AgentCore({
    client: parent.client,
    model: spec.model,
    prefix,
    repairTools: prepared.tools,
    hooks: parent.hooks,
    session,
    info,
    dispatch: {
      tools: spec.tools,
      hooks: toolHooks,
      info,
      askPermission,
      autoApprove: parent.autoApprove,
      ...(parent.withoutProjectHooks ? { withoutProjectHooks: true } : {}),
      allowed: new Set(),
      clock: parent.clock,
      ...(parent.rules ? { rules: parent.rules } : {}),
      ...(parent.checkpoint ? { checkpoint: parent.checkpoint } : {}),
      shellCwd,
    },
    maxTurns: spec.maxTurns,
    clock: parent.clock,
    ...(parent.thinking !== undefined ? { thinking: parent.thinking } : {}),
    ...(effort ? { effort } : {}),
    ...(spec.finish ? { finish: spec.finish } : {}),
  });
  return { id, type: spec.agentType, core, deniedByUser: () => denied };
}

/** How a sub-agent's task ended. */
export interface SubagentOutcome {
  text: string;
  stopReason: Extract<AgentEvent, { type: "turn_end" }>["stopReason"];
  /** The error that ended it, if any. */
  error: string | null;
  costUsd: number;
  requests: number;
}

/** Fires SubagentStart, then runs `prompt` through the turn loop; yields its events. */
export async function* runSubagent(
  agent: Subagent,
  prompt: string,
  signal: AbortSignal,
  opts: { start?: boolean } = {},
): AsyncGenerator<AgentEvent, SubagentOutcome> {
  const { core } = agent;
  if (opts.start !== false) {
    yield* fireHook(
      core.hooks,
      core.info,
      "SubagentStart",
      { agent_id: agent.id, agent_type: agent.type },
      signal,
    );
  }
  let text = "";
  let stopReason: SubagentOutcome["stopReason"] = "error";
  let error: string | null = null;
  for await (const ev of runTurn(core, prompt, signal)) {
    if (ev.type === "turn_end") {
      text = ev.text;
      stopReason = ev.stopReason;
    } else if (ev.type === "error") error = ev.message;
    yield ev;
  }
  return { text, stopReason, error, costUsd: core.costUsd, requests: core.requests };
}
