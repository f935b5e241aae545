/**
 * The OpenTelemetry SDK side (loaded only when telemetry is on: ./index.ts). Keel's event
 * stream becomes spans — `invoke_agent keel` (the session) → `keel.turn` → `chat <model>` (each
 * model request) and `execute_tool <name>` → `keel.hook <event>` — with the GenAI semantic
 * conventions' names where they exist, metrics, and each hook decision as a span event, sent
 * over OTLP (http/protobuf, http/json or gRPC: ./protocol.ts) to what the standard `OTEL_*`
 * variables name. One set of providers per process; each agent the front end opens (the TUI
 * opens one per /clear, /resume and /model) gets its own session span on them.
 *
 * What leaves: names, counts, durations, outcomes. Not the prompt (unless
 * OTEL_LOG_USER_PROMPTS=1), not tool input, command text or hook commands (unless
 * OTEL_LOG_TOOL_DETAILS=1), never tool output, file content, hook output or the reply text.
 */
import {
  type Attributes,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import { defaultResource, resourceFromAttributes } from "@opentelemetry/resources";
import { MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import type { AgentEvent } from "../agent/index.js";
import { redactUrls } from "../base/index.js";
import { VERSION } from "../version.js";
import { metricExporter, traceExporter } from "./exporters.js";
import type { SessionTelemetry, Telemetry } from "./index.js";
import type { OtlpProtocols } from "./protocol.js";

/** Text sent on opt-in is capped: a span attribute is not a transcript. */
const MAX_TEXT = 4096;

function capped(text: string): string {
  return redactUrls(text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text);
}

function positiveInt(text: string | undefined, fallback: number): number {
  const n = Number(text);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/** Builds the providers and returns what opens a session's telemetry on them. */
export async function createTelemetry(opts: {
  env: NodeJS.ProcessEnv;
  frontEnd: string;
  protocols: OtlpProtocols;
}): Promise<Telemetry> {
  const env = opts.env;
  const logPrompts = env.OTEL_LOG_USER_PROMPTS === "1";
  const logTools = env.OTEL_LOG_TOOL_DETAILS === "1";
  const resource = defaultResource().merge(
    resourceFromAttributes({
      "service.name": env.OTEL_SERVICE_NAME || "keel",
      "service.version": VERSION,
    }),
  );
  const tracesOn = env.OTEL_TRACES_EXPORTER !== "none";
  const metricsOn = env.OTEL_METRICS_EXPORTER !== "none";
  const tracer = new TracerProvider({
    resource,
    spanProcessors: tracesOn
      ? [new BatchSpanProcessor({ exporter: await traceExporter(opts.protocols.traces) })]
      : [],
  });
  const meters = new MeterProvider({
    resource,
    readers: metricsOn
      ? [
          new PeriodicExportingMetricReader({
            exporter: await metricExporter(opts.protocols.metrics),
            exportIntervalMillis: positiveInt(env.OTEL_METRIC_EXPORT_INTERVAL, 60_000),
          }),
        ]
      : [],
  });
  const t = tracer.getTracer("keel", VERSION);
  const m = meters.getMeter("keel", VERSION);
  const tokenUsage = m.createHistogram("gen_ai.client.token.usage", {
    unit: "{token}",
    description: "Tokens per model request (gen_ai.token.type: input | output)",
  });
  const tokens = m.createCounter("keel.tokens", {
    unit: "{token}",
    description: "Tokens by type: input, output, cache_read, cache_miss",
  });
  const cacheRatio = m.createHistogram("keel.cache.hit_ratio", {
    unit: "1",
    description: "Share of a request's prompt tokens served from the provider's prefix cache",
  });
  const cost = m.createCounter("keel.cost", { unit: "USD", description: "Model spend" });
  const toolCalls = m.createCounter("keel.tool.calls", { description: "Tool calls by status" });
  const hookRuns = m.createCounter("keel.hook.runs", { description: "Hook runs by outcome" });
  const hookLatency = m.createHistogram("keel.hook.duration", {
    unit: "ms",
    description: "Hook run time",
  });

  const child = (parent: Span, name: string, attributes: Attributes, startTime?: number) =>
    t.startSpan(
      name,
      { kind: SpanKind.INTERNAL, attributes, ...(startTime !== undefined ? { startTime } : {}) },
      trace.setSpan(ROOT_CONTEXT, parent),
    );
  // Sessions whose agent has not ended yet: ended at shutdown, so their spans are sent too.
  const open = new Set<SessionTelemetry>();

  const openSession = (o: { sessionId: string; model: string }): SessionTelemetry => {
    const base: Attributes = {
      "gen_ai.provider.name": "deepseek",
      "gen_ai.conversation.id": o.sessionId,
      "gen_ai.request.model": o.model,
      "keel.front_end": opts.frontEnd,
    };
    let ended = false;
    const session = t.startSpan("invoke_agent keel", {
      kind: SpanKind.INTERNAL,
      attributes: {
        ...base,
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.agent.name": "keel",
      },
    });
    let turn: Span | null = null;
    let request: Span | null = null;
    const tools = new Map<string, Span>();
    let lastTool: Span | null = null;

    const endRequest = () => {
      request?.end();
      request = null;
    };

    const sink: SessionTelemetry = {
      event(ev: AgentEvent) {
        // Events after the end (a late notice) have no span to go under.
        if (ended) return;
        switch (ev.type) {
          case "turn_start": {
            turn?.end();
            turn = child(session, "keel.turn", {
              "keel.turn": ev.turn,
              ...(logPrompts ? { "keel.prompt": capped(ev.prompt) } : {}),
            });
            break;
          }
          case "request_start": {
            endRequest();
            request = child(turn ?? session, `chat ${o.model}`, {
              ...base,
              "gen_ai.operation.name": "chat",
              "keel.request": ev.request,
            });
            break;
          }
          case "usage": {
            const u = ev.usage;
            const span = request ?? session;
            span.setAttributes({
              "gen_ai.usage.input_tokens": u.promptTokens,
              "gen_ai.usage.output_tokens": u.completionTokens,
              "gen_ai.usage.cache_read.input_tokens": u.cacheHitTokens,
              "keel.usage.cache_miss_tokens": u.cacheMissTokens,
              "keel.usage.reasoning_tokens": u.reasoningTokens,
              "keel.cost_usd": ev.turnCostUsd,
            });
            const attrs = { "gen_ai.request.model": o.model, "gen_ai.operation.name": "chat" };
            tokenUsage.record(u.promptTokens, { ...attrs, "gen_ai.token.type": "input" });
            tokenUsage.record(u.completionTokens, { ...attrs, "gen_ai.token.type": "output" });
            tokens.add(u.promptTokens, { ...attrs, type: "input" });
            tokens.add(u.completionTokens, { ...attrs, type: "output" });
            tokens.add(u.cacheHitTokens, { ...attrs, type: "cache_read" });
            tokens.add(u.cacheMissTokens, { ...attrs, type: "cache_miss" });
            if (u.promptTokens > 0) cacheRatio.record(u.cacheHitTokens / u.promptTokens, attrs);
            cost.add(ev.turnCostUsd, attrs);
            endRequest();
            break;
          }
          case "tool_call": {
            endRequest();
            const span = child(turn ?? session, `execute_tool ${ev.name}`, {
              "gen_ai.operation.name": "execute_tool",
              "gen_ai.tool.name": ev.name,
              "gen_ai.tool.call.id": ev.id,
              ...(logTools ? { "keel.tool.input": capped(JSON.stringify(ev.input)) } : {}),
            });
            tools.set(ev.id, span);
            lastTool = span;
            break;
          }
          case "tool_result": {
            const span = tools.get(ev.id);
            toolCalls.add(1, { "gen_ai.tool.name": ev.name, "keel.tool.status": ev.status });
            if (!span) break;
            span.setAttribute("keel.tool.status", ev.status);
            if (ev.status === "error") span.setStatus({ code: SpanStatusCode.ERROR });
            span.end();
            tools.delete(ev.id);
            if (lastTool === span) lastTool = null;
            break;
          }
          case "hook_run": {
            const r = ev.run;
            // A tool's hooks sit under its span; the rest under the turn, else the session.
            const toolHook = r.event === "PreToolUse" || r.event.startsWith("PostToolUse");
            const parent = (toolHook ? lastTool : null) ?? turn ?? session;
            const attrs: Attributes = {
              "keel.hook.event": r.event,
              "keel.hook.outcome": r.outcome,
              "keel.hook.handler_type": r.handlerType,
              "keel.hook.dialect": r.dialect,
              "keel.hook.scope": r.scope,
              "keel.hook.async": r.async,
            };
            const span = child(
              parent,
              `keel.hook ${r.event}`,
              {
                ...attrs,
                "keel.hook.id": r.hookId,
                ...(r.exitCode !== null ? { "keel.hook.exit_code": r.exitCode } : {}),
                ...(logTools ? { "keel.hook.command": capped(r.command) } : {}),
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
            hookRuns.add(1, attrs);
            hookLatency.record(r.durationMs, attrs);
            break;
          }
          case "turn_end": {
            endRequest();
            for (const s of tools.values()) s.end();
            tools.clear();
            lastTool = null;
            turn?.setAttribute("keel.stop_reason", ev.stopReason);
            turn?.end();
            turn = null;
            break;
          }
          case "error": {
            session.setStatus({ code: SpanStatusCode.ERROR });
            break;
          }
          default:
            break;
        }
      },
      end() {
        if (ended) return;
        ended = true;
        endRequest();
        for (const s of tools.values()) s.end();
        turn?.end();
        session.end();
        open.delete(sink);
      },
    };
    open.add(sink);
    return sink;
  };

  return {
    session: openSession,
    async shutdown() {
      for (const s of [...open]) s.end();
      // Flush what is left; a collector that is down costs at most the exporters' timeout.
      await Promise.allSettled([tracer.shutdown(), meters.shutdown()]);
    },
  };
}
