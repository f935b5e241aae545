/**
 * Telemetry through the real entry point: the built `keel run --yes` against the simulator, a
 * 5-tool-call session with two user hooks, exporting over OTLP/HTTP (JSON) to a receiver on
 * loopback that decodes what arrives. Checked: the span tree (session → turn → model request /
 * tool call → hook run) with GenAI names, the metrics, the hook decisions as events, and that
 * no prompt, file content, command text or hook command leaves unless switched on. Control
 * runs: telemetry off sends nothing; OTEL_LOG_USER_PROMPTS=1 does send the prompt (so the
 * "absent" checks can fail).
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reply, type Simulator, script, startSimulator } from "../../src/sim/index.js";
import { buildPrivate } from "../e2e/tui-harness.js";

const PROMPT = "look around PROMPT-MARKER-7731";
let build: ReturnType<typeof buildPrivate>;
let work: string;
let receiver: Server;
let endpoint: string;
let received: { path: string; body: string }[] = [];
const sims: Simulator[] = [];

beforeAll(async () => {
  build = buildPrivate();
  work = mkdtempSync(join(tmpdir(), "keel-otlp-"));
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      received.push({ path: req.url ?? "", body });
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  await new Promise<void>((done) => receiver.listen(0, "127.0.0.1", done));
  endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  await Promise.all(sims.map((s) => s.close()));
  await new Promise((done) => receiver?.close(done));
  build?.cleanup();
  rmSync(work, { recursive: true, force: true });
});

async function fiveToolSim(): Promise<Simulator> {
  const sim = await startSimulator({
    script: script(
      reply().tool("list_dir", { path: "." }),
      reply().tool("read_file", { path: "notes.txt" }),
      reply().tool("shell", { command: "echo CMD-MARKER-5512" }),
      reply().tool("list_dir", { path: "." }),
      reply().tool("read_file", { path: "notes.txt" }),
      reply().text("done REPLY-MARKER-8812"),
    ),
  });
  sims.push(sim);
  return sim;
}

function setUp(name: string): { project: string; home: string } {
  const project = join(work, name, "project");
  const home = join(work, name, "home");
  mkdirSync(project, { recursive: true });
  mkdirSync(join(home, ".keel"), { recursive: true });
  writeFileSync(join(project, "notes.txt"), "CONTENT-MARKER-9043\n");
  const hook = (command: string) => [{ matcher: "*", hooks: [{ type: "command", command }] }];
  writeFileSync(
    join(home, ".keel", "settings.json"),
    JSON.stringify({
      hooks: {
        PreToolUse: hook("echo HOOKCMD-MARKER-1 >/dev/null"),
        PostToolUse: hook("echo HOOKCMD-MARKER-2 >/dev/null"),
      },
    }),
  );
  return { project, home };
}

async function keelRun(name: string, extraEnv: Record<string, string>) {
  const { project, home } = setUp(name);
  const sim = await fiveToolSim();
  received = [];
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    KEEL_HOME: join(home, ".keel"),
    DEEPSEEK_API_KEY: "sk-test",
    KEEL_BASE_URL: sim.url,
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    ...extraEnv,
  };
  const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
    const child = spawn(
      process.execPath,
      [build.bin, "run", "--yes", "--output-format", "json", PROMPT],
      {
        cwd: project,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => {
      stdout += c;
    });
    child.stderr.on("data", (c) => {
      stderr += c;
    });
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
  return r;
}

interface OtlpSpan {
  name: string;
  spanId: string;
  parentSpanId?: string;
  attributes?: { key: string; value: Record<string, unknown> }[];
  events?: { name: string }[];
}

function spansOf(): OtlpSpan[] {
  return received
    .filter((r) => r.path === "/v1/traces")
    .flatMap((r) => JSON.parse(r.body).resourceSpans)
    .flatMap((rs: { scopeSpans: { spans: OtlpSpan[] }[] }) => rs.scopeSpans)
    .flatMap((ss: { spans: OtlpSpan[] }) => ss.spans);
}

interface OtlpMetric {
  name: string;
  sum?: { dataPoints: { asInt?: string | number; asDouble?: number }[] };
  histogram?: { dataPoints: { count: string | number }[] };
}

function metricsOf(): OtlpMetric[] {
  return received
    .filter((r) => r.path === "/v1/metrics")
    .flatMap((r) => JSON.parse(r.body).resourceMetrics)
    .flatMap((rm: { scopeMetrics: { metrics: OtlpMetric[] }[] }) => rm.scopeMetrics)
    .flatMap((sm: { metrics: OtlpMetric[] }) => sm.metrics);
}

function attr(span: OtlpSpan, key: string): unknown {
  const v = span.attributes?.find((a) => a.key === key)?.value;
  return v === undefined ? undefined : Object.values(v)[0];
}

function sumOf(m: OtlpMetric | undefined): number {
  return (m?.sum?.dataPoints ?? []).reduce((n, p) => n + Number(p.asInt ?? p.asDouble ?? 0), 0);
}

describe("keel run exporting OpenTelemetry over OTLP/HTTP", () => {
  it("sends spans, metrics and hook decisions for a 5-tool session, and no private text", async () => {
    const r = await keelRun("on", { KEEL_ENABLE_TELEMETRY: "1" });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).toolCalls).toHaveLength(5);
    const spans = spansOf();
    const named = (prefix: string) => spans.filter((s) => s.name.startsWith(prefix));
    const [session] = named("invoke_agent");
    const [turn] = named("keel.turn");
    expect(session).toBeDefined();
    expect(attr(session as OtlpSpan, "gen_ai.operation.name")).toBe("invoke_agent");
    expect(turn?.parentSpanId).toBe(session?.spanId);
    const requests = named("chat ");
    expect(requests).toHaveLength(6);
    for (const q of requests) {
      expect(q.parentSpanId).toBe(turn?.spanId);
      expect(Number(attr(q, "gen_ai.usage.input_tokens"))).toBeGreaterThan(0);
      expect(attr(q, "gen_ai.usage.cache_read.input_tokens")).toBeDefined();
    }
    const tools = named("execute_tool ");
    expect(tools.map((s) => attr(s, "gen_ai.tool.name"))).toEqual([
      "list_dir",
      "read_file",
      "shell",
      "list_dir",
      "read_file",
    ]);
    for (const s of tools) expect(s.parentSpanId).toBe(turn?.spanId);
    const hooks = named("keel.hook ");
    expect(hooks).toHaveLength(10);
    const toolIds = new Set(tools.map((s) => s.spanId));
    for (const h of hooks) {
      expect(toolIds.has(h.parentSpanId ?? "")).toBe(true);
      expect(h.events?.map((e) => e.name)).toEqual(["keel.hook.decision"]);
      expect(attr(h, "keel.hook.outcome")).toBe("pass");
    }

    const metrics = metricsOf();
    const metric = (name: string) => metrics.find((m) => m.name === name);
    expect(sumOf(metric("keel.tool.calls"))).toBe(5);
    expect(sumOf(metric("keel.hook.runs"))).toBe(10);
    expect(sumOf(metric("keel.tokens"))).toBeGreaterThan(0);
    expect(metric("keel.cost")).toBeDefined();
    expect(metric("gen_ai.client.token.usage")?.histogram).toBeDefined();
    expect(metric("keel.cache.hit_ratio")?.histogram).toBeDefined();
    expect(metric("keel.hook.duration")?.histogram?.dataPoints.length).toBeGreaterThan(0);

    const all = received.map((x) => x.body).join("\n");
    for (const marker of [
      "PROMPT-MARKER",
      "CONTENT-MARKER",
      "CMD-MARKER",
      "HOOKCMD-MARKER",
      "REPLY-MARKER",
      "sk-test",
    ]) {
      expect(all).not.toContain(marker);
    }
  }, 60_000);

  it("control: telemetry off sends nothing", async () => {
    const r = await keelRun("off", {});
    expect(r.code, r.stderr).toBe(0);
    expect(received).toEqual([]);
  }, 60_000);

  it("control: OTEL_LOG_USER_PROMPTS=1 and OTEL_LOG_TOOL_DETAILS=1 send the prompt and commands", async () => {
    const r = await keelRun("opt-in", {
      KEEL_ENABLE_TELEMETRY: "1",
      OTEL_LOG_USER_PROMPTS: "1",
      OTEL_LOG_TOOL_DETAILS: "1",
    });
    expect(r.code, r.stderr).toBe(0);
    const all = received.map((x) => x.body).join("\n");
    expect(all).toContain("PROMPT-MARKER-7731");
    expect(all).toContain("CMD-MARKER-5512");
    expect(all).toContain("HOOKCMD-MARKER-1");
    // File content and replies never leave, even then.
    expect(all).not.toContain("CONTENT-MARKER");
    expect(all).not.toContain("REPLY-MARKER");
  }, 60_000);
});
