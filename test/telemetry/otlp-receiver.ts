/**
 * An OTLP receiver on loopback for the telemetry tests: OTLP/HTTP (JSON or protobuf bodies) and
 * OTLP/gRPC (HTTP/2, one length-prefixed protobuf message per call), decoding what arrives into
 * one shape, so a test checks the same spans and metrics whatever the protocol. The protobuf
 * side is decoded here from the wire format and the field numbers of opentelemetry-proto
 * (trace/v1/trace.proto, metrics/v1/metrics.proto, common/v1/common.proto), not by the SDK's
 * own serializer: a receiver that shared the exporter's code could not catch its mistakes.
 */
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createH2Server, type Http2Server } from "node:http2";
import type { AddressInfo } from "node:net";

export interface Received {
  /** "/v1/traces" or "/v1/metrics" (a gRPC call is mapped to the same). */
  path: string;
  /** "json", "protobuf" or "grpc": how it came. */
  encoding: "json" | "protobuf" | "grpc";
  /** The request decoded to OTLP's JSON shape. */
  body: unknown;
  /** The raw bytes, to search for text that must not leave. */
  raw: Buffer;
}

export interface Receiver {
  endpoint: string;
  received: Received[];
  close(): Promise<void>;
}

// --- protobuf wire format -------------------------------------------------------------------

interface Field {
  no: number;
  wire: number;
  /** varint: bigint; fixed64 / fixed32 / length-delimited: the bytes. */
  value: bigint | Buffer;
}

function fields(buf: Buffer): Field[] {
  const out: Field[] = [];
  let at = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (at >= buf.length) throw new Error("protobuf: truncated varint");
      const byte = buf[at++] as number;
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  const take = (n: number) => {
    if (at + n > buf.length) throw new Error("protobuf: truncated field");
    const b = buf.subarray(at, at + n);
    at += n;
    return b;
  };
  while (at < buf.length) {
    const key = varint();
    const no = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (wire === 0) out.push({ no, wire, value: varint() });
    else if (wire === 1) out.push({ no, wire, value: take(8) });
    else if (wire === 2) out.push({ no, wire, value: take(Number(varint())) });
    else if (wire === 5) out.push({ no, wire, value: take(4) });
    else throw new Error(`protobuf: wire type ${wire} of field ${no}`);
  }
  return out;
}

const all = (fs: Field[], no: number) => fs.filter((f) => f.no === no).map((f) => f.value);
const bytes = (fs: Field[], no: number) => all(fs, no).find(Buffer.isBuffer);
const str = (fs: Field[], no: number) => bytes(fs, no)?.toString("utf8");
const messages = (fs: Field[], no: number) =>
  all(fs, no)
    .filter(Buffer.isBuffer)
    .map((b) => fields(b));

function anyValue(fs: Field[]): Record<string, unknown> {
  const [f] = fs;
  if (!f) return {};
  switch (f.no) {
    case 1:
      return { stringValue: (f.value as Buffer).toString("utf8") };
    case 2:
      return { boolValue: f.value === 1n };
    case 3:
      return { intValue: BigInt.asIntN(64, f.value as bigint).toString() };
    case 4:
      return { doubleValue: (f.value as Buffer).readDoubleLE(0) };
    default:
      return { other: f.no };
  }
}

function attributes(fs: Field[], no: number) {
  return messages(fs, no).map((kv) => ({
    key: str(kv, 1) ?? "",
    value: anyValue(messages(kv, 2)[0] ?? []),
  }));
}

function decodeTraces(buf: Buffer) {
  return {
    resourceSpans: messages(fields(buf), 1).map((rs) => ({
      scopeSpans: messages(rs, 2).map((ss) => ({
        spans: messages(ss, 2).map((span) => {
          const parent = bytes(span, 4);
          return {
            name: str(span, 5) ?? "",
            spanId: bytes(span, 2)?.toString("hex") ?? "",
            ...(parent && parent.length > 0 ? { parentSpanId: parent.toString("hex") } : {}),
            attributes: attributes(span, 9),
            events: messages(span, 11).map((ev) => ({ name: str(ev, 2) ?? "" })),
          };
        }),
      })),
    })),
  };
}

function numberPoint(p: Field[]) {
  const asDouble = bytes(p, 4);
  const asInt = bytes(p, 6);
  return {
    ...(asDouble ? { asDouble: asDouble.readDoubleLE(0) } : {}),
    ...(asInt ? { asInt: asInt.readBigInt64LE(0).toString() } : {}),
  };
}

function decodeMetrics(buf: Buffer) {
  return {
    resourceMetrics: messages(fields(buf), 1).map((rm) => ({
      scopeMetrics: messages(rm, 2).map((sm) => ({
        metrics: messages(sm, 2).map((m) => {
          const sum = messages(m, 7)[0];
          const histogram = messages(m, 9)[0];
          return {
            name: str(m, 1) ?? "",
            ...(sum ? { sum: { dataPoints: messages(sum, 1).map(numberPoint) } } : {}),
            ...(histogram
              ? {
                  histogram: {
                    dataPoints: messages(histogram, 1).map((p) => ({
                      count: bytes(p, 4)?.readBigUInt64LE(0).toString() ?? "0",
                    })),
                  },
                }
              : {}),
          };
        }),
      })),
    })),
  };
}

function decode(path: string, buf: Buffer): unknown {
  if (path === "/v1/traces") return decodeTraces(buf);
  if (path === "/v1/metrics") return decodeMetrics(buf);
  throw new Error(`no OTLP signal at ${path}`);
}

// --- servers ------------------------------------------------------------------------------

function listen(server: Server | Http2Server): Promise<string> {
  return new Promise((done) =>
    server.listen(0, "127.0.0.1", () =>
      done(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

/** OTLP/HTTP: JSON or protobuf bodies, told apart by their content type. */
export async function startHttpReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const path = req.url ?? "";
      const type = req.headers["content-type"] ?? "";
      try {
        if (type.startsWith("application/json")) {
          received.push({ path, encoding: "json", body: JSON.parse(raw.toString("utf8")), raw });
          res.writeHead(200, { "content-type": "application/json" });
          res.end("{}");
        } else if (type.startsWith("application/x-protobuf")) {
          received.push({ path, encoding: "protobuf", body: decode(path, raw), raw });
          res.writeHead(200, { "content-type": "application/x-protobuf" });
          res.end();
        } else {
          res.writeHead(415);
          res.end();
        }
      } catch (err) {
        res.writeHead(400);
        res.end(String(err));
      }
    });
  });
  const endpoint = await listen(server);
  return {
    endpoint,
    received,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

const GRPC_PATHS: Record<string, string> = {
  "/opentelemetry.proto.collector.trace.v1.TraceService/Export": "/v1/traces",
  "/opentelemetry.proto.collector.metrics.v1.MetricsService/Export": "/v1/metrics",
};

/** OTLP/gRPC over cleartext HTTP/2: each call's body is one gRPC frame (a flag byte, a 4-byte
 *  length, the protobuf message); the answer is an empty Export*ServiceResponse and status 0. */
export async function startGrpcReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const server = createH2Server();
  server.on("stream", (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => {
      const frame = Buffer.concat(chunks);
      const path = GRPC_PATHS[String(headers[":path"])];
      let status = "0";
      if (path === undefined)
        status = "12"; // UNIMPLEMENTED
      else if (frame.length < 5 || frame[0] !== 0)
        status = "3"; // not one uncompressed message
      else {
        const raw = frame.subarray(5, 5 + frame.readUInt32BE(1));
        received.push({ path, encoding: "grpc", body: decode(path, raw), raw });
      }
      stream.respond(
        { ":status": 200, "content-type": "application/grpc+proto" },
        { waitForTrailers: true },
      );
      stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": status }));
      stream.end(status === "0" ? Buffer.from([0, 0, 0, 0, 0]) : undefined);
    });
  });
  const endpoint = await listen(server);
  return {
    endpoint,
    received,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

// --- reading what arrived -----------------------------------------------------------------

export interface OtlpSpan {
  name: string;
  spanId: string;
  parentSpanId?: string;
  attributes?: { key: string; value: Record<string, unknown> }[];
  events?: { name: string }[];
}

export interface OtlpMetric {
  name: string;
  sum?: { dataPoints: { asInt?: string | number; asDouble?: number }[] };
  histogram?: { dataPoints: { count: string | number }[] };
}

export function spansOf(received: readonly Received[]): OtlpSpan[] {
  return received
    .filter((r) => r.path === "/v1/traces")
    .flatMap(
      (r) => (r.body as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] }).resourceSpans,
    )
    .flatMap((rs) => rs.scopeSpans)
    .flatMap((ss) => ss.spans);
}

export function metricsOf(received: readonly Received[]): OtlpMetric[] {
  return received
    .filter((r) => r.path === "/v1/metrics")
    .flatMap(
      (r) =>
        (r.body as { resourceMetrics: { scopeMetrics: { metrics: OtlpMetric[] }[] }[] })
          .resourceMetrics,
    )
    .flatMap((rm) => rm.scopeMetrics)
    .flatMap((sm) => sm.metrics);
}

export function attr(span: OtlpSpan, key: string): unknown {
  const v = span.attributes?.find((a) => a.key === key)?.value;
  return v === undefined ? undefined : Object.values(v)[0];
}

export function sumOf(m: OtlpMetric | undefined): number {
  return (m?.sum?.dataPoints ?? []).reduce((n, p) => n + Number(p.asInt ?? p.asDouble ?? 0), 0);
}
