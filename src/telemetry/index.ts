/**
 * OpenTelemetry for Keel (docs/security.md "Telemetry"): off by default; on with `KEEL_ENABLE_TELEMETRY=1` or
 * `"telemetry": true` in user settings ($KEEL_HOME/settings.json — a project cannot switch it
 * on: a cloned repository must not decide where your session's numbers go). The SDK is in
 * ./export.ts, imported only when telemetry is on, so start-up is unchanged when it is off.
 * It consumes the agent's event stream, as `keel run` and the TUI do.
 */
import { join } from "node:path";
import type { AgentEvent } from "../agent/index.js";
import { isRecord, readConfigTextSync } from "../base/index.js";
import { type OtlpProtocols, otlpProtocols } from "./protocol.js";

export { observeAgent } from "./observe.js";
export {
  OTLP_PROTOCOLS,
  type OtlpProtocol,
  type OtlpProtocols,
  otlpProtocols,
} from "./protocol.js";

/** One session's telemetry: its events become spans and metrics; `end` closes its span. */
export interface SessionTelemetry {
  event(ev: AgentEvent): void;
  end(): void;
}

/** The exporters of one process. A front end that replaces its agent (the TUI's /clear,
 *  /resume, /model) opens a session per agent on the same exporters; `shutdown` ends the
 *  sessions still open and flushes what is left to the collector. */
export interface Telemetry {
  session(o: { sessionId: string; model: string }): SessionTelemetry;
  shutdown(): Promise<void>;
}

/** What receives one session's events; `shutdown` flushes what is left to the collector. */
export interface TelemetrySink {
  event(ev: AgentEvent): void;
  shutdown(): Promise<void>;
}

/** Whether telemetry is on: the variable wins (`0` turns it off), else the user setting. */
export function telemetryEnabled(env: NodeJS.ProcessEnv, keelHome: string): boolean {
  const flag = env.KEEL_ENABLE_TELEMETRY;
  if (flag !== undefined && flag !== "") return flag === "1" || flag.toLowerCase() === "true";
  const { content } = readConfigTextSync(join(keelHome, "settings.json"));
  if (content === null) return false;
  try {
    const json: unknown = JSON.parse(content);
    return isRecord(json) && json.telemetry === true;
  } catch {
    return false; // The settings readers report a broken file; telemetry stays off.
  }
}

function failure(err: unknown): string {
  return `telemetry is on but could not start: ${err instanceof Error ? err.message : String(err)}`;
}

/** Starts the process's exporters, or returns null when telemetry is off. Never throws: a
 *  collector that is down or a wrong `OTEL_*` value must not stop the agent (the failure is
 *  returned as `problem`, for the front end to show). */
export async function openTelemetry(opts: {
  env: NodeJS.ProcessEnv;
  keelHome: string;
  /** "run" or "tui": which front end, as an attribute. */
  frontEnd: string;
}): Promise<{ telemetry: Telemetry | null; problem: string | null }> {
  if (!telemetryEnabled(opts.env, opts.keelHome)) return { telemetry: null, problem: null };
  // Checked before any SDK module loads: a typo names its variable, not a module.
  const protocols: OtlpProtocols | { error: string } = otlpProtocols(opts.env);
  if ("error" in protocols) return { telemetry: null, problem: failure(protocols.error) };
  try {
    const { createTelemetry } = await import("./export.js");
    return { telemetry: await createTelemetry({ ...opts, protocols }), problem: null };
  } catch (err) {
    return { telemetry: null, problem: failure(err) };
  }
}

/** Starts telemetry for one session (`keel run`), or returns null when it is off. Never throws. */
export async function startTelemetry(opts: {
  env: NodeJS.ProcessEnv;
  keelHome: string;
  sessionId: string;
  model: string;
  frontEnd: string;
}): Promise<{ sink: TelemetrySink | null; problem: string | null }> {
  const { telemetry, problem } = await openTelemetry(opts);
  if (telemetry === null) return { sink: null, problem };
  const session = telemetry.session({ sessionId: opts.sessionId, model: opts.model });
  return {
    sink: { event: (ev) => session.event(ev), shutdown: () => telemetry.shutdown() },
    problem: null,
  };
}
