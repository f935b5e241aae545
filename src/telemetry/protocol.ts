/**
 * Which OTLP protocol each signal is sent with, from the standard variables: the per-signal
 * `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL` / `_METRICS_PROTOCOL` win over `OTEL_EXPORTER_OTLP_PROTOCOL`;
 * unset, the OTLP exporter specification's default, `http/protobuf`. Read before the SDK loads
 * (./index.ts), so only the chosen protocol's exporter is imported (./exporters.ts).
 */

export const OTLP_PROTOCOLS = ["http/protobuf", "http/json", "grpc"] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

export interface OtlpProtocols {
  traces: OtlpProtocol;
  metrics: OtlpProtocol;
}

function isProtocol(text: string): text is OtlpProtocol {
  return (OTLP_PROTOCOLS as readonly string[]).includes(text);
}

/** The protocol of each signal, or an error naming the variable with a value Keel cannot send. */
export function otlpProtocols(env: NodeJS.ProcessEnv): OtlpProtocols | { error: string } {
  const pick = (signal: "TRACES" | "METRICS"): OtlpProtocol | { error: string } => {
    for (const name of [`OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`, "OTEL_EXPORTER_OTLP_PROTOCOL"]) {
      const raw = env[name]?.trim();
      if (raw === undefined || raw === "") continue;
      if (isProtocol(raw)) return raw;
      return {
        error: `${name}=${JSON.stringify(raw.slice(0, 40))} is not an OTLP protocol Keel can send; use one of ${OTLP_PROTOCOLS.join(", ")}`,
      };
    }
    return "http/protobuf";
  };
  // A signal switched off (OTEL_*_EXPORTER=none) needs no protocol: its value is not checked.
  const traces = env.OTEL_TRACES_EXPORTER === "none" ? "http/protobuf" : pick("TRACES");
  if (typeof traces !== "string") return traces;
  const metrics = env.OTEL_METRICS_EXPORTER === "none" ? "http/protobuf" : pick("METRICS");
  if (typeof metrics !== "string") return metrics;
  return { traces, metrics };
}
