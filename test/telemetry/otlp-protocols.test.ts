/**
 * The OTLP protocols through the real entry point (the built `keel run --yes` against the
 * simulator): http/protobuf (the default), http/json and gRPC, chosen by
 * OTEL_EXPORTER_OTLP_PROTOCOL or per signal by OTEL_EXPORTER_OTLP_TRACES_PROTOCOL /
 * _METRICS_PROTOCOL, each sent to a loopback receiver that decodes it (./otlp-receiver.ts).
 * Also: only the chosen protocol's exporter is loaded (gRPC's code stays out of an http run),
 * and a protocol Keel cannot send is an error naming its variable, not a stack trace.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reply, type Simulator, script, startSimulator } from "../../src/sim/index.js";
import { buildPrivate } from "../e2e/tui-harness.js";
import {
  attr,
  metricsOf,
  type Receiver,
  spansOf,
  startGrpcReceiver,
  startHttpReceiver,
  sumOf,
} from "./otlp-receiver.js";

let build: ReturnType<typeof buildPrivate>;
let work: string;
let http: Receiver;
let grpc: Receiver;
const sims: Simulator[] = [];

/** Text only the gRPC exporter's code holds: the OTLP trace service's method path. */
const GRPC_MARK = "opentelemetry.proto.collector.trace.v1.TraceService";

beforeAll(async () => {
  build = buildPrivate();
  work = mkdtempSync(join(tmpdir(), "keel-otlp-proto-"));
  writeFileSync(
    join(work, "trace.mjs"),
    `import { registerHooks } from "node:module";
registerHooks({ load(url, ctx, next) {
  if (url.startsWith("file:")) process.stderr.write("LOADED " + url + "\\n");
  return next(url, ctx);
} });`,
  );
  [http, grpc] = await Promise.all([startHttpReceiver(), startGrpcReceiver()]);
}, 120_000);
afterAll(async () => {
  await Promise.all(sims.map((s) => s.close()));
  await Promise.all([http?.close(), grpc?.close()]);
  build?.cleanup();
  rmSync(work, { recursive: true, force: true });
});

async function keelRun(name: string, extraEnv: Record<string, string>) {
  const project = join(work, name, "project");
  const home = join(work, name, "home");
  mkdirSync(project, { recursive: true });
  mkdirSync(join(home, ".keel"), { recursive: true });
  const sim = await startSimulator({
    script: script(
      reply().tool("list_dir", { path: "." }),
      reply().tool("list_dir", { path: "." }),
      reply().text("done"),
    ),
  });
  sims.push(sim);
  http.received.length = 0;
  grpc.received.length = 0;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    KEEL_HOME: join(home, ".keel"),
    DEEPSEEK_API_KEY: "sk-test",
    KEEL_BASE_URL: sim.url,
    KEEL_ENABLE_TELEMETRY: "1",
    // Where packages not (yet) in node_modules were installed for a run of this test.
    ...(process.env.NODE_PATH ? { NODE_PATH: process.env.NODE_PATH } : {}),
    ...extraEnv,
  };
  const args = ["--import", join(work, "trace.mjs"), build.bin, "run", "--yes", "look around"];
  const r = await new Promise<{ code: number | null; stderr: string }>((done) => {
    const child = spawn(process.execPath, args, { cwd: project, env, stdio: "pipe" });
    let stderr = "";
    child.stderr.on("data", (c) => {
      stderr += c;
    });
    child.stdout.resume();
    child.on("close", (code) => done({ code, stderr }));
  });
  const loaded = r.stderr
    .split("\n")
    .filter((l) => l.startsWith("LOADED "))
    .map((l) => fileURLToPath(l.slice(7)));
  const said = r.stderr
    .split("\n")
    .filter((l) => !l.startsWith("LOADED "))
    .join("\n");
  const loadsGrpc = loaded.some((f) => readFileSync(f, "utf8").includes(GRPC_MARK));
  return { code: r.code, stderr: said, loadsGrpc };
}

function expectSession(from: Receiver, traces: string, metrics: string) {
  const t = from.received.filter((x) => x.path === "/v1/traces");
  const m = from.received.filter((x) => x.path === "/v1/metrics");
  expect(t.length).toBeGreaterThan(0);
  expect(m.length).toBeGreaterThan(0);
  expect(new Set(t.map((x) => x.encoding))).toEqual(new Set([traces]));
  expect(new Set(m.map((x) => x.encoding))).toEqual(new Set([metrics]));
}

function expectSpansAndMetrics(traces: Receiver, metrics: Receiver) {
  const spans = spansOf(traces.received);
  const [session] = spans.filter((s) => s.name === "invoke_agent keel");
  expect(session && attr(session, "gen_ai.operation.name")).toBe("invoke_agent");
  const [turn] = spans.filter((s) => s.name === "keel.turn");
  expect(turn?.parentSpanId).toBe(session?.spanId);
  const tools = spans.filter((s) => s.name === "execute_tool list_dir");
  expect(tools).toHaveLength(2);
  for (const s of tools) expect(s.parentSpanId).toBe(turn?.spanId);
  const requests = spans.filter((s) => s.name.startsWith("chat "));
  expect(requests).toHaveLength(3);
  for (const q of requests) expect(Number(attr(q, "gen_ai.usage.input_tokens"))).toBeGreaterThan(0);
  const all = metricsOf(metrics.received);
  expect(sumOf(all.find((x) => x.name === "keel.tool.calls"))).toBe(2);
  expect(sumOf(all.find((x) => x.name === "keel.tokens"))).toBeGreaterThan(0);
  expect(
    all.find((x) => x.name === "gen_ai.client.token.usage")?.histogram?.dataPoints.length,
  ).toBeGreaterThan(0);
}

describe("OTLP protocols", () => {
  it("unset: http/protobuf, decoded from the protobuf wire format; gRPC's code not loaded", async () => {
    const r = await keelRun("default", { OTEL_EXPORTER_OTLP_ENDPOINT: http.endpoint });
    expect(r.code, r.stderr).toBe(0);
    expectSession(http, "protobuf", "protobuf");
    expectSpansAndMetrics(http, http);
    expect(r.loadsGrpc).toBe(false);
  }, 60_000);

  it("OTEL_EXPORTER_OTLP_PROTOCOL=http/json: JSON bodies", async () => {
    const r = await keelRun("json", {
      OTEL_EXPORTER_OTLP_ENDPOINT: http.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    });
    expect(r.code, r.stderr).toBe(0);
    expectSession(http, "json", "json");
    expectSpansAndMetrics(http, http);
    expect(r.loadsGrpc).toBe(false);
  }, 60_000);

  it("OTEL_EXPORTER_OTLP_PROTOCOL=grpc: OTLP/gRPC calls (and gRPC's code is what loads)", async () => {
    const r = await keelRun("grpc", {
      OTEL_EXPORTER_OTLP_ENDPOINT: grpc.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: "grpc",
    });
    expect(r.code, r.stderr).toBe(0);
    expectSession(grpc, "grpc", "grpc");
    expectSpansAndMetrics(grpc, grpc);
    expect(http.received).toEqual([]);
    expect(r.loadsGrpc).toBe(true);
  }, 60_000);

  it("per signal: _TRACES_PROTOCOL=grpc and _METRICS_PROTOCOL=http/protobuf win over the general one", async () => {
    const r = await keelRun("mixed", {
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "grpc",
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: grpc.endpoint,
      OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: "http/protobuf",
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: `${http.endpoint}/v1/metrics`,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(grpc.received.map((x) => x.path)).not.toContain("/v1/metrics");
    expect(http.received.map((x) => x.path)).not.toContain("/v1/traces");
    expect(new Set(grpc.received.map((x) => x.encoding))).toEqual(new Set(["grpc"]));
    expect(new Set(http.received.map((x) => x.encoding))).toEqual(new Set(["protobuf"]));
    expectSpansAndMetrics(grpc, http);
  }, 60_000);

  it("an unknown protocol is a one-line error naming the variable; the run itself goes on", async () => {
    const r = await keelRun("unknown", {
      OTEL_EXPORTER_OTLP_ENDPOINT: http.endpoint,
      OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: "http/xml",
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'keel: telemetry is on but could not start: OTEL_EXPORTER_OTLP_METRICS_PROTOCOL="http/xml" is not an OTLP protocol Keel can send; use one of http/protobuf, http/json, grpc',
    );
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(http.received).toEqual([]);
  }, 60_000);
});
