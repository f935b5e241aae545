/**
 * The agent's state for one session: the immutable prefix, the append-only log, the scratch,
 * the hooks and tools, and the one place requests are built and streamed. `turn.ts`,
 * `compact.ts` and `agent.ts` drive it.
 */
import type { HookEngine, HookEventName } from "../hooks/index.js";
import type { ChatClient, ChatMessage, ChatRequest, Usage } from "../llm/index.js";
import {
  costUsd,
  costWithoutCacheUsd,
  type EffortLevel,
  type EffortResolution,
  resolveEffort,
} from "../llm/index.js";
import { DEFAULT_TOOL_RESULT_MAX_CHARS, trimToolResult } from "./auto-compact.js";
import type { CompactionRecord, ReasoningOptions, RequestReply } from "./core-types.js";
import type { AgentEvent } from "./events.js";
import { type HookSessionInfo, hookContextBlock } from "./hook-adapter/fire.js";
import { AppendOnlyLog } from "./log.js";
import type { DispatchContext } from "./pipeline/index.js";
import type { ImmutablePrefix } from "./prefix.js";
import { createStormBreaker, type RepairTool, type StormBreaker } from "./repair/index.js";
import { LeakedMarkupFilter } from "./repair/stream-filter.js";
import { VolatileScratch } from "./scratch.js";
import type { SessionPort } from "./types.js";

/** Hook text waiting for the next user message (SessionStart output, async hook results). */
interface PendingContext {
  event: HookEventName;
  text: string;
}

/**
 * A tool whose successful call ends a turn (a hook sub-agent's verdict): `take` returns the
 * final text once the tool recorded an answer; `reset` forgets it when a stop hook objects.
 */
export interface FinishSignal {
  take(): string | null;
  reset(): void;
}

/** Settings the core is built from. */
export interface CoreOptions {
  client: ChatClient;
  model: string;
  prefix: ImmutablePrefix;
  repairTools: readonly RepairTool[];
  hooks: HookEngine;
  session: SessionPort;
  info: HookSessionInfo;
  dispatch: DispatchContext;
  maxTurns: number;
  clock: () => number;
  thinking?: "enabled" | "disabled";
  /** The effort level asked for (`--effort`, `/effort`, config.json), or none. */
  effort?: EffortLevel;
  temperature?: number;
  maxTokens?: number;
  finish?: FinishSignal;
  /** Compact automatically once a response's prompt tokens reach this (null/absent: never). */
  autoCompactAt?: number | null;
  /** Tool results longer than this are sent trimmed (stored whole in the session). */
  toolResultMaxChars?: number;
  /** Harvest and branching (opt-in); absent: both off. */
  reasoning?: ReasoningOptions;
  /**
   * How a branched request and a harvest are made (`reasoning.ts`), passed in so the core does
   * not import the strategies that drive it; absent: neither runs, whatever `reasoning` says.
   */
  strategies?: RequestStrategies;
}

/** The request strategies beyond a plain request; `reasoning.ts` implements both. */
export interface RequestStrategies {
  /** N samples of one request, one picked; returns the picked reply. */
  branched(
    core: AgentCore,
    req: ChatRequest,
    signal: AbortSignal,
  ): AsyncGenerator<AgentEvent, RequestReply>;
  /** Harvests a reply's reasoning into the scratch. Never throws. */
  harvest(
    core: AgentCore,
    reasoning: string,
    signal: AbortSignal,
  ): AsyncGenerator<AgentEvent, unknown>;
}

/** A zero usage record. */
export function emptyUsage(): Usage {
  return {
    promptTokens: 0,
    cacheHitTokens: 0,
    cacheMissTokens: 0,
    completionTokens: 0,
    reasoningTokens: 0,
  };
}

/** The state of one session and the request path. */
export class AgentCore {
  readonly log: AppendOnlyLog;
  readonly scratch = new VolatileScratch();
  readonly hooks: HookEngine;
  readonly info: HookSessionInfo;
  readonly dispatch: DispatchContext;
  readonly maxTurns: number;
  readonly session: SessionPort;
  readonly prefix: ImmutablePrefix;
  /** The tools as repair sees them (flattened schemas re-nest at dispatch). */
  readonly repairTools: readonly RepairTool[];
  readonly storm: StormBreaker = createStormBreaker();
  /** Harvest and branching, switchable between turns (/harvest, /branch, /preset). */
  reasoning: ReasoningOptions;
  /** The automatic compaction threshold in prompt tokens, or null when it is off. */
  readonly autoCompactAt: number | null;
  /** Set for a hook sub-agent: a successful call of its finish tool ends the turn. */
  readonly finish: FinishSignal | undefined;
  turns = 0;
  requests = 0;
  readonly usage: Usage = emptyUsage();
  costUsd = 0;
  costWithoutCacheUsd = 0;
  /** `usage.prompt_tokens` of the last response (what the next request will at least send). */
  lastPromptTokens = 0;
  /** A model for the current turn only (a custom command's `model`), or null. */
  turnModel: string | null = null;
  /** The session's memory block, queued again after a compaction. */
  memoryText = "";
  /** The memory files behind it (InstructionsLoaded fires for them again after a compaction). */
  memoryFiles: { path: string; scope: "user" | "project"; importedBy: string | null }[] = [];
  readonly compactionLog: CompactionRecord[] = [];
  readonly #pending: PendingContext[] = [];
  #afterCompaction = false;
  /** Text that opens the next user message before any hook context (project memory). */
  readonly #preamble: string[] = [];
  readonly #opts: CoreOptions;
  /** The effort level asked for; what it becomes depends on the model asked (effort()). */
  #effort: EffortLevel | null;
  #resolved: { model: string; level: EffortLevel; result: EffortResolution } | null = null;

  constructor(opts: CoreOptions) {
    this.#opts = opts;
    this.#effort = opts.effort ?? null;
    this.hooks = opts.hooks;
    this.info = opts.info;
    this.dispatch = opts.dispatch;
    this.maxTurns = opts.maxTurns;
    this.session = opts.session;
    this.prefix = opts.prefix;
    this.repairTools = opts.repairTools;
    this.finish = opts.finish;
    this.autoCompactAt = opts.autoCompactAt ?? null;
    this.reasoning = opts.reasoning ?? { harvest: false, branch: 1, cheapModel: opts.model };
    this.log = new AppendOnlyLog({
      onAppend: (bytes) => opts.session.appendMessage(bytes, { turn: this.turns }),
    });
  }

  /** Whether a tool changes state (storm breaker: a change makes re-reading legitimate). */
  isMutating(name: string): boolean {
    const tool = this.dispatch.tools.find((t) => t.name === name);
    return tool === undefined || tool.kind !== "read" || tool.changesState === true;
  }

  /** Queues hook text for the next user message (new content: nothing sent is edited). */
  addPending(event: HookEventName, text: string | null): void {
    if (text?.trim()) this.#pending.push({ event, text });
  }

  /** Queues text that opens the next user message (project memory), before hook context. */
  addPreamble(text: string): void {
    if (text.trim()) this.#preamble.push(text);
  }

  /**
   * Appends the user's message (memory, then the prompt), then — a message of its own — the
   * hook context for it: queued SessionStart / async results, then UserPromptSubmit's. Claude
   * Code 2.1.332 sends that context as a separate message after the prompt, not inside it
   * (docs/hooks.md "Where results go"); both are appended, so nothing sent is edited.
   */
  appendUserTurn(
    prompt: string,
    submitContext: string | null,
    images: readonly string[] = [],
  ): void {
    const parts = this.#preamble.splice(0);
    parts.push(prompt);
    this.log.append({
      role: "user",
      content: parts.join("\n\n"),
      ...(images.length > 0 ? { images: [...images] } : {}),
    });
    const blocks = this.#pending.splice(0).map((p) => hookContextBlock(p.event, p.text));
    if (submitContext?.trim()) blocks.push(hookContextBlock("UserPromptSubmit", submitContext));
    this.appendHookMessage(blocks);
  }

  /**
   * Appends hook context (`<hook-context>` blocks) as one message of its own. Its role is
   * `user`, not Claude Code's `system`: DeepSeek's chat template moves every `system` message,
   * wherever it is sent, to the front of the prompt — the model would read it before the
   * conversation, and the cached prefix would change (docs/hooks.md "Where results go").
   */
  appendHookMessage(blocks: readonly string[]): void {
    if (blocks.length > 0) this.log.append({ role: "user", content: blocks.join("\n\n") });
  }

  /** Whether this core is a sub-agent (its turn ends with SubagentStop, not Stop). */
  get isSubagent(): boolean {
    return this.info.agent !== undefined;
  }

  /** The client requests go through. */
  get client(): ChatClient {
    return this.#opts.client;
  }

  /** The model this core asks. */
  get model(): string {
    return this.turnModel ?? this.#opts.model;
  }

  /** The effort level asked for, or null. */
  get requestedEffort(): EffortLevel | null {
    return this.#effort;
  }

  /** Asks for another effort level (null: none) from the next request on. */
  setEffort(level: EffortLevel | null): void {
    this.#effort = level;
  }

  /**
   * What the effort asked for becomes for the model asked now (a custom command's model may
   * take none): null when none was asked for. Hooks are told the level of an `ok` result.
   */
  effort(): EffortResolution | null {
    if (this.#effort === null) return null;
    const model = this.model;
    const r = this.#resolved;
    if (r !== null && r.model === model && r.level === this.#effort) return r.result;
    const result = resolveEffort(model, this.#effort);
    this.#resolved = { model, level: this.#effort, result };
    return result;
  }

  /**
   * Takes finished async hook results: runs and notices now; their context into the next user
   * message (a turn's start) or, `midTurn`, into a message of its own before the turn's next
   * request, so the model reads it within the same prompt (as Claude Code delivers it).
   */
  *collectAsyncResults(opts: { midTurn?: boolean } = {}): Generator<AgentEvent> {
    // The session collects them; a sub-agent must not take the parent's results.
    if (this.isSubagent) return;
    let results: ReturnType<HookEngine["takeAsyncResults"]>;
    try {
      results = this.hooks.takeAsyncResults();
    } catch {
      return;
    }
    const blocks: string[] = [];
    for (const r of results) {
      yield { type: "hook_run", run: r.run };
      if (r.systemMessage) yield { type: "notice", level: "info", text: r.systemMessage };
      if (!opts.midTurn) this.addPending(r.run.event, r.additionalContext);
      else if (r.additionalContext?.trim()) {
        blocks.push(hookContextBlock(r.run.event, r.additionalContext));
      }
    }
    this.appendHookMessage(blocks);
  }

  /** Renders a tool result into the log, trimmed once if it is too long (whole in the session). */
  appendToolResult(callId: string, content: string): void {
    const max = this.#opts.toolResultMaxChars ?? DEFAULT_TOOL_RESULT_MAX_CHARS;
    const sent = trimToolResult(content, max);
    if (sent !== content) {
      this.session.recordEvent?.("tool_output", {
        toolCallId: callId,
        chars: content.length,
        content,
      });
    }
    this.log.append({ role: "tool", content: sent, tool_call_id: callId });
  }

  /** Whether the last response's prompt tokens reached the automatic compaction threshold. */
  needsCompaction(): boolean {
    return this.autoCompactAt !== null && this.lastPromptTokens >= this.autoCompactAt;
  }

  /**
   * The request for the current log plus `extra` (not stored), e.g. a compaction instruction;
   * `view` replaces the log's messages (a shrunk view for a summary after a context overflow).
   */
  buildRequest(
    extra: readonly ChatMessage[] = [],
    signal?: AbortSignal,
    view?: readonly string[],
  ): ChatRequest {
    const o = this.#opts;
    const body = view === undefined ? this.log.messagesWith(extra) : viewWith(view, extra);
    const messages = this.prefix.messages.concat(body);
    const tools = this.prefix.toolsJson;
    // The effort's fields go after the messages (request-body.ts): the prefix stays the same.
    const effort = this.effort();
    const asked = effort?.ok ? effort.request : {};
    const thinking = asked.thinking ?? o.thinking;
    return {
      model: this.turnModel ?? o.model,
      messages,
      ...(tools !== undefined ? { tools } : {}),
      ...(o.temperature !== undefined ? { temperature: o.temperature } : {}),
      ...(o.maxTokens !== undefined ? { maxTokens: o.maxTokens } : {}),
      ...(thinking !== undefined ? { thinking } : {}),
      ...(asked.reasoningEffort !== undefined ? { reasoningEffort: asked.reasoningEffort } : {}),
      ...(signal ? { signal } : {}),
    };
  }

  /** Streams one request, yielding deltas and usage; returns the assembled message. */
  async *request(opts: {
    turn: number;
    signal: AbortSignal;
    extra?: readonly ChatMessage[];
    view?: readonly string[];
  }): AsyncGenerator<AgentEvent, RequestReply> {
    this.requests += 1;
    yield { type: "request_start", turn: opts.turn, request: this.requests };
    const req = this.buildRequest(opts.extra, opts.signal, opts.view);
    // A summary or other side request is never branched or harvested: only the turn's own.
    const ownRequest = opts.extra === undefined && opts.view === undefined;
    const strategies = this.#opts.strategies;
    if (ownRequest && strategies !== undefined && this.reasoning.branch >= 2) {
      return yield* strategies.branched(this, req, opts.signal);
    }
    // Leaked tool-call markup is repaired once the reply is complete; never show it meanwhile.
    const shownText = new LeakedMarkupFilter();
    const shownReasoning = new LeakedMarkupFilter();
    let shown = "";
    try {
      for await (const ev of this.#opts.client.stream(req)) {
        switch (ev.type) {
          case "reasoning_delta": {
            this.scratch.reasoning += ev.text;
            const text = shownReasoning.push(ev.text);
            if (text !== "") yield { type: "reasoning_delta", text };
            break;
          }
          case "text_delta": {
            const text = shownText.push(ev.text);
            if (text !== "") {
              shown += text;
              yield { type: "text_delta", text };
            }
            break;
          }
          case "retry":
            yield {
              type: "notice",
              level: "warn",
              text: `${ev.message}; retrying (attempt ${ev.attempt})`,
            };
            break;
          case "error":
            return { kind: "error", message: ev.message, shownText: shown };
          case "done": {
            const reasoningTail = shownReasoning.end();
            if (reasoningTail !== "") yield { type: "reasoning_delta", text: reasoningTail };
            const textTail = shownText.end();
            if (textTail !== "") yield { type: "text_delta", text: textTail };
            if (ev.usage) yield this.accountRequest(ev.usage);
            const message = assistantMessage(ev.message);
            const reasoning = message.reasoning_content;
            if (ownRequest && strategies !== undefined && this.reasoning.harvest && reasoning) {
              yield* strategies.harvest(this, reasoning, opts.signal);
            }
            return { kind: "message", message, finishReason: ev.finishReason, usage: ev.usage };
          }
        }
      }
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      return { kind: "error", message, shownText: shown };
    }
    return {
      kind: "error",
      message: "the model's stream ended without an answer",
      shownText: shown,
    };
  }

  /** Marks that the log was just compacted (the next response measures what it saved). */
  markCompacted(): void {
    this.#afterCompaction = true;
    this.lastPromptTokens = 0;
  }

  /** Accounts a model call made outside the conversation (hooks, harvest); returns its cost. */
  accountExternal(model: string, usage: Usage): number {
    return this.#add(model, usage);
  }

  /** Accounts one conversation request's usage; returns the `usage` event to yield. */
  accountRequest(usage: Usage): AgentEvent {
    this.lastPromptTokens = usage.promptTokens;
    const last = this.compactionLog.at(-1);
    // The first request after a compaction measures what sending the conversation costs now.
    if (this.#afterCompaction && last !== undefined) {
      last.promptTokensAfter = usage.promptTokens;
      this.session.appendCompactionStats?.({
        model: this.model,
        trigger: last.trigger,
        reason: last.reason,
        promptTokensBefore: last.promptTokensBefore,
        promptTokensAfter: usage.promptTokens,
        summaryCostUsd: last.costUsd,
      });
    }
    this.#afterCompaction = false;
    const turnCost = this.#add(this.turnModel ?? this.#opts.model, usage);
    return { type: "usage", usage, costUsd: this.costUsd, turnCostUsd: turnCost };
  }

  /** Adds one call to the totals and the usage log; returns its cost. */
  #add(model: string, usage: Usage): number {
    const at = new Date(this.#opts.clock());
    const turnCost = costUsd(model, usage, at);
    const without = costWithoutCacheUsd(model, usage, at);
    this.usage.promptTokens += usage.promptTokens;
    this.usage.cacheHitTokens += usage.cacheHitTokens;
    this.usage.cacheMissTokens += usage.cacheMissTokens;
    this.usage.completionTokens += usage.completionTokens;
    this.usage.reasoningTokens += usage.reasoningTokens;
    this.costUsd += turnCost;
    this.costWithoutCacheUsd += without;
    this.session.appendUsage({
      sessionId: this.session.id,
      model,
      at: this.#opts.clock(),
      usage,
      costUsd: turnCost,
      costWithoutCacheUsd: without,
    });
    return turnCost;
  }
}

/** A replacement message view followed by `extra`, merged as the log merges user runs. */
function viewWith(view: readonly string[], extra: readonly ChatMessage[]): string[] {
  const tmp = new AppendOnlyLog();
  const restored = tmp.restore(view);
  if (!restored.ok) return [...view];
  return tmp.messagesWith(extra);
}

/** Only the fields the wire message needs, in the assistant's shape. */
export function assistantMessage(m: ChatMessage): ChatMessage {
  const out: ChatMessage = { role: "assistant", content: m.content };
  // Kept even when empty: a thinking-mode tool turn must pass reasoning_content back.
  if (m.reasoning_content !== undefined) out.reasoning_content = m.reasoning_content;
  if (m.tool_calls && m.tool_calls.length > 0) out.tool_calls = m.tool_calls;
  if (out.content === null && out.tool_calls === undefined) out.content = "";
  return out;
}
