/**
 * The OTLP exporters, one package per protocol, loaded only for the protocol chosen
 * (./protocol.ts): gRPC brings @grpc/grpc-js, which a user of http/json should not load.
 * Each exporter reads the standard OTEL_EXPORTER_OTLP_(TRACES_|METRICS_)ENDPOINT, _HEADERS and
 * _TIMEOUT itself (the gRPC ones take the endpoint without the /v1/<signal> path).
 */
import { createRequire } from "node:module";
import type { PushMetricExporter } from "@opentelemetry/sdk-metrics";
import type { SpanExporter } from "@opentelemetry/sdk-trace";
import type { OtlpProtocol } from "./protocol.js";

type GrpcTraces = typeof import("@opentelemetry/exporter-trace-otlp-grpc");
type GrpcMetrics = typeof import("@opentelemetry/exporter-metrics-otlp-grpc");

/**
 * The gRPC exporters are required from node_modules as their authors ship them, not bundled
 * into dist/bundle (scripts/build-cli.mjs bundles every import it can see): bundled, their
 * grpc-js sent nothing in test/telemetry/otlp-protocols.test.ts, and the failure went only to
 * the SDK's diagnostic logger, which Keel leaves silent. A require through createRequire is one esbuild leaves alone. grpc-js itself
 * is resolved here too, as the exporter will on its first export, so a broken install is a
 * start-up problem the front end shows rather than telemetry that never arrives.
 */
function requireGrpcExporter<T>(name: string): T {
  const here = createRequire(import.meta.url);
  try {
    const base = createRequire(here.resolve(name)).resolve(
      "@opentelemetry/otlp-grpc-exporter-base",
    );
    createRequire(base).resolve("@grpc/grpc-js");
    return here(name) as T;
  } catch (err) {
    const missing = err instanceof Error && /Cannot find module '([^']+)'/.exec(err.message)?.[1];
    throw new Error(
      missing ? `the gRPC exporter needs ${missing}, which is not installed` : String(err),
    );
  }
}

export async function traceExporter(protocol: OtlpProtocol): Promise<SpanExporter> {
  switch (protocol) {
    case "http/json":
      return new (await import("@opentelemetry/exporter-trace-otlp-http")).OTLPTraceExporter();
    case "http/protobuf":
      return new (await import("@opentelemetry/exporter-trace-otlp-proto")).OTLPTraceExporter();
    case "grpc":
      return new (requireGrpcExporter<GrpcTraces>(
        "@opentelemetry/exporter-trace-otlp-grpc",
      ).OTLPTraceExporter)();
  }
}

export async function metricExporter(protocol: OtlpProtocol): Promise<PushMetricExporter> {
  switch (protocol) {
    case "http/json":
      return new (await import("@opentelemetry/exporter-metrics-otlp-http")).OTLPMetricExporter();
    case "http/protobuf":
      return new (await import("@opentelemetry/exporter-metrics-otlp-proto")).OTLPMetricExporter();
    case "grpc":
      return new (requireGrpcExporter<GrpcMetrics>(
        "@opentelemetry/exporter-metrics-otlp-grpc",
      ).OTLPMetricExporter)();
  }
}
