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
import type { Meter } from "@opentelemetry/api";
import { defaultResource, resourceFromAttributes } from "@opentelemetry/resources";
import { MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { VERSION } from "../version.js";
import { metricExporter, traceExporter } from "./exporters.js";
import type { SessionTelemetry, Telemetry } from "./index.js";
import type { OtlpProtocols } from "./protocol.js";
import { type Instruments, openSessionSpans } from "./session-spans.js";

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
  const open = new Set<SessionTelemetry>();
  const context = {
    tracer: tracer.getTracer("keel", VERSION),
    instruments: instruments(meters.getMeter("keel", VERSION)),
    frontEnd: opts.frontEnd,
    logPrompts: env.OTEL_LOG_USER_PROMPTS === "1",
    logTools: env.OTEL_LOG_TOOL_DETAILS === "1",
    open,
  };
  return {
    session: (o) => openSessionSpans(context, o),
    async shutdown() {
      for (const s of [...open]) s.end();
      // Flush what is left; a collector that is down costs at most the exporters' timeout.
      await Promise.allSettled([tracer.shutdown(), meters.shutdown()]);
    },
  };
}

/** The metrics Keel records, GenAI's names where there is one. */
function instruments(m: Meter): Instruments {
  return {
    tokenUsage: m.createHistogram("gen_ai.client.token.usage", {
      unit: "{token}",
      description: "Tokens per model request (gen_ai.token.type: input | output)",
    }),
    tokens: m.createCounter("keel.tokens", {
      unit: "{token}",
      description: "Tokens by type: input, output, cache_read, cache_miss",
    }),
    cacheRatio: m.createHistogram("keel.cache.hit_ratio", {
      unit: "1",
      description: "Share of a request's prompt tokens served from the provider's prefix cache",
    }),
    cost: m.createCounter("keel.cost", { unit: "USD", description: "Model spend" }),
    toolCalls: m.createCounter("keel.tool.calls", { description: "Tool calls by status" }),
    hookRuns: m.createCounter("keel.hook.runs", { description: "Hook runs by outcome" }),
    hookLatency: m.createHistogram("keel.hook.duration", {
      unit: "ms",
      description: "Hook run time",
    }),
  };
}
