/**
 * OpenTelemetry for Keel (design §9): off by default; on with `KEEL_ENABLE_TELEMETRY=1` or
 * `"telemetry": true` in user settings ($KEEL_HOME/settings.json — a project cannot switch it
 * on: a cloned repository must not decide where your session's numbers go). The SDK is in
 * ./export.ts, imported only when telemetry is on, so start-up is unchanged when it is off.
 * It consumes the agent's event stream, as `keel run` and the TUI do.
 */
import { join } from "node:path";
import type { AgentEvent } from "../agent/index.js";
import { isRecord, readConfigTextSync } from "../base/index.js";

/** What receives the session's events; `shutdown` flushes what is left to the collector. */
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

/** Starts telemetry for one session, or returns null when it is off. Never throws: a
 *  collector that is down must not stop the agent (the failure is returned as `problem`). */
export async function startTelemetry(opts: {
  env: NodeJS.ProcessEnv;
  keelHome: string;
  sessionId: string;
  model: string;
  /** "run" or "tui": which front end, as an attribute. */
  frontEnd: string;
}): Promise<{ sink: TelemetrySink | null; problem: string | null }> {
  if (!telemetryEnabled(opts.env, opts.keelHome)) return { sink: null, problem: null };
  try {
    const { createExportingSink } = await import("./export.js");
    return { sink: createExportingSink(opts), problem: null };
  } catch (err) {
    return {
      sink: null,
      problem: `telemetry is on but could not start: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
}
