/**
 * The OTLP exporters, one package per protocol, imported only for the protocol chosen
 * (./protocol.ts): gRPC brings @grpc/grpc-js, which a user of http/json should not load.
 * Each exporter reads the standard OTEL_EXPORTER_OTLP_(TRACES_|METRICS_)ENDPOINT, _HEADERS and
 * _TIMEOUT itself (the gRPC ones take the endpoint without the /v1/<signal> path).
 */
import type { PushMetricExporter } from "@opentelemetry/sdk-metrics";
import type { SpanExporter } from "@opentelemetry/sdk-trace";
import type { OtlpProtocol } from "./protocol.js";

export async function traceExporter(protocol: OtlpProtocol): Promise<SpanExporter> {
  switch (protocol) {
    case "http/json":
      return new (await import("@opentelemetry/exporter-trace-otlp-http")).OTLPTraceExporter();
    case "http/protobuf":
      return new (await import("@opentelemetry/exporter-trace-otlp-proto")).OTLPTraceExporter();
    case "grpc":
      return new (await import("@opentelemetry/exporter-trace-otlp-grpc")).OTLPTraceExporter();
  }
}

export async function metricExporter(protocol: OtlpProtocol): Promise<PushMetricExporter> {
  switch (protocol) {
    case "http/json":
      return new (await import("@opentelemetry/exporter-metrics-otlp-http")).OTLPMetricExporter();
    case "http/protobuf":
      return new (await import("@opentelemetry/exporter-metrics-otlp-proto")).OTLPMetricExporter();
    case "grpc":
      return new (await import("@opentelemetry/exporter-metrics-otlp-grpc")).OTLPMetricExporter();
  }
}
