/**
 * One session's spans (./export.ts opens one per agent): `invoke_agent keel` → `keel.turn` →
 * `chat <model>` and `execute_tool <name>` → `keel.hook <event>`, built from the agent's event
 * stream, with the metrics each event adds. What may leave is said in ./export.ts.
 */
import {
  type Attributes,
  type Counter,
  type Histogram,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import type { AgentEvent } from "../agent/index.js";
import { redactUrls } from "../base/index.js";
import type { SessionTelemetry } from "./index.js";

/** Text sent on opt-in is capped: a span attribute is not a transcript. */
const MAX_TEXT = 4096;

function capped(text: string): string {
  return redactUrls(text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text);
}

/** The metrics the events feed (./export.ts creates them on the process's meter). */
export interface Instruments {
  tokenUsage: Histogram;
  tokens: Counter;
  cacheRatio: Histogram;
  cost: Counter;
  toolCalls: Counter;
  hookRuns: Counter;
  hookLatency: Histogram;
}

/** What every session of the process shares. */
export interface SpanContext {
  tracer: Tracer;
  instruments: Instruments;
  frontEnd: string;
  /** OTEL_LOG_USER_PROMPTS=1: the prompt goes on the turn's span. */
  logPrompts: boolean;
  /** OTEL_LOG_TOOL_DETAILS=1: tool input and hook commands go on their spans. */
  logTools: boolean;
  /** Sessions not ended yet: shutdown ends them, so their spans are sent too. */
  open: Set<SessionTelemetry>;
}

/** The spans of one session still open. */
interface SessionSpans {
  c: SpanContext;
  model: string;
  /** Attributes of the session span that model requests repeat. */
  base: Attributes;
  session: Span;
  turn: Span | null;
  request: Span | null;
  tools: Map<string, Span>;
  /** The tool call whose hooks are firing: its PreToolUse/PostToolUse spans go under it. */
  lastTool: Span | null;
}

function child(c: SpanContext, parent: Span, name: string, attrs: Attributes, startTime?: number) {
  return c.tracer.startSpan(
    name,
    {
      kind: SpanKind.INTERNAL,
      attributes: attrs,
      ...(startTime !== undefined ? { startTime } : {}),
    },
    trace.setSpan(ROOT_CONTEXT, parent),
  );
}

function endRequest(s: SessionSpans): void {
  s.request?.end();
  s.request = null;
}

type Ev<T extends AgentEvent["type"]> = Extract<AgentEvent, { type: T }>;

function turnStart(s: SessionSpans, ev: Ev<"turn_start">): void {
  s.turn?.end();
  s.turn = child(s.c, s.session, "keel.turn", {
    "keel.turn": ev.turn,
    ...(s.c.logPrompts ? { "keel.prompt": capped(ev.prompt) } : {}),
  });
}

function requestStart(s: SessionSpans, ev: Ev<"request_start">): void {
  endRequest(s);
  s.request = child(s.c, s.turn ?? s.session, `chat ${s.model}`, {
    ...s.base,
    "gen_ai.operation.name": "chat",
    "keel.request": ev.request,
  });
}

/** A model request's usage: on its span, and in the token, cache and cost metrics. */
function usage(s: SessionSpans, ev: Ev<"usage">): void {
  const u = ev.usage;
  const m = s.c.instruments;
  (s.request ?? s.session).setAttributes({
    "gen_ai.usage.input_tokens": u.promptTokens,
    "gen_ai.usage.output_tokens": u.completionTokens,
    "gen_ai.usage.cache_read.input_tokens": u.cacheHitTokens,
    "keel.usage.cache_miss_tokens": u.cacheMissTokens,
    "keel.usage.reasoning_tokens": u.reasoningTokens,
    "keel.cost_usd": ev.turnCostUsd,
  });
  const attrs = { "gen_ai.request.model": s.model, "gen_ai.operation.name": "chat" };
  m.tokenUsage.record(u.promptTokens, { ...attrs, "gen_ai.token.type": "input" });
  m.tokenUsage.record(u.completionTokens, { ...attrs, "gen_ai.token.type": "output" });
  m.tokens.add(u.promptTokens, { ...attrs, type: "input" });
  m.tokens.add(u.completionTokens, { ...attrs, type: "output" });
  m.tokens.add(u.cacheHitTokens, { ...attrs, type: "cache_read" });
  m.tokens.add(u.cacheMissTokens, { ...attrs, type: "cache_miss" });
  if (u.promptTokens > 0) m.cacheRatio.record(u.cacheHitTokens / u.promptTokens, attrs);
  m.cost.add(ev.turnCostUsd, attrs);
  endRequest(s);
}

function toolCall(s: SessionSpans, ev: Ev<"tool_call">): void {
  endRequest(s);
  const span = child(s.c, s.turn ?? s.session, `execute_tool ${ev.name}`, {
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.name": ev.name,
    "gen_ai.tool.call.id": ev.id,
    ...(s.c.logTools ? { "keel.tool.input": capped(JSON.stringify(ev.input)) } : {}),
  });
  s.tools.set(ev.id, span);
  s.lastTool = span;
}

function toolResult(s: SessionSpans, ev: Ev<"tool_result">): void {
  const span = s.tools.get(ev.id);
  s.c.instruments.toolCalls.add(1, { "gen_ai.tool.name": ev.name, "keel.tool.status": ev.status });
  if (!span) return;
  span.setAttribute("keel.tool.status", ev.status);
  if (ev.status === "error") span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
  s.tools.delete(ev.id);
  if (s.lastTool === span) s.lastTool = null;
}

/** A hook run, as a span of its own (timed as it ran) with its decision as an event. */
function hookRun(s: SessionSpans, ev: Ev<"hook_run">): void {
  const r = ev.run;
  // A tool's hooks sit under its span; the rest under the turn, else the session.
  const toolHook = r.event === "PreToolUse" || r.event.startsWith("PostToolUse");
  const parent = (toolHook ? s.lastTool : null) ?? s.turn ?? s.session;
  const attrs: Attributes = {
    "keel.hook.event": r.event,
    "keel.hook.outcome": r.outcome,
    "keel.hook.handler_type": r.handlerType,
    "keel.hook.dialect": r.dialect,
    "keel.hook.scope": r.scope,
    "keel.hook.async": r.async,
  };
  const span = child(
    s.c,
    parent,
    `keel.hook ${r.event}`,
    {
      ...attrs,
      "keel.hook.id": r.hookId,
      ...(r.exitCode !== null ? { "keel.hook.exit_code": r.exitCode } : {}),
      ...(s.c.logTools ? { "keel.hook.command": capped(r.command) } : {}),
    },
    r.startedAt,
  );
  // The decision, as an event: what the hook said, not what it printed.
  span.addEvent("keel.hook.decision", {
    "keel.hook.outcome": r.outcome,
    "keel.hook.event": r.event,
  });
  if (r.outcome === "error" || r.outcome === "timeout") {
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end(r.startedAt + r.durationMs);
  s.c.instruments.hookRuns.add(1, attrs);
  s.c.instruments.hookLatency.record(r.durationMs, attrs);
}

function turnEnd(s: SessionSpans, ev: Ev<"turn_end">): void {
  endRequest(s);
  for (const span of s.tools.values()) span.end();
  s.tools.clear();
  s.lastTool = null;
  s.turn?.setAttribute("keel.stop_reason", ev.stopReason);
  s.turn?.end();
  s.turn = null;
}

/** What each event does to the spans; other events add nothing. */
const ON_EVENT: { [T in AgentEvent["type"]]?: (s: SessionSpans, ev: Ev<T>) => void } = {
  turn_start: turnStart,
  request_start: requestStart,
  usage,
  tool_call: toolCall,
  tool_result: toolResult,
  hook_run: hookRun,
  turn_end: turnEnd,
  error: (s) => s.session.setStatus({ code: SpanStatusCode.ERROR }),
};

function onEvent(s: SessionSpans, ev: AgentEvent): void {
  const handle = ON_EVENT[ev.type] as ((s: SessionSpans, ev: AgentEvent) => void) | undefined;
  handle?.(s, ev);
}

/** Opens a session's span; the sink it returns turns the agent's events into spans under it. */
export function openSessionSpans(
  c: SpanContext,
  o: { sessionId: string; model: string },
): SessionTelemetry {
  const base: Attributes = {
    "gen_ai.provider.name": "deepseek",
    "gen_ai.conversation.id": o.sessionId,
    "gen_ai.request.model": o.model,
    "keel.front_end": c.frontEnd,
  };
  const session = c.tracer.startSpan("invoke_agent keel", {
    kind: SpanKind.INTERNAL,
    attributes: { ...base, "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "keel" },
  });
  const s: SessionSpans = {
    c,
    model: o.model,
    base,
    session,
    turn: null,
    request: null,
    tools: new Map(),
    lastTool: null,
  };
  let ended = false;
  const sink: SessionTelemetry = {
    event(ev: AgentEvent) {
      // Events after the end (a late notice) have no span to go under.
      if (!ended) onEvent(s, ev);
    },
    end() {
      if (ended) return;
      ended = true;
      endRequest(s);
      for (const span of s.tools.values()) span.end();
      s.turn?.end();
      session.end();
      c.open.delete(sink);
    },
  };
  c.open.add(sink);
  return sink;
}
