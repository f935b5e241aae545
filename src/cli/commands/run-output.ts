/** How `keel run` prints: streamed text, one JSON object at the end, or one JSON line per event. */
import { branchLine } from "../../agent/branch.js";
import type { AgentEvent, ToolCallStatus } from "../../agent/events.js";
import { planLines } from "../../agent/harvest.js";
import type { HookRunRecord } from "../../hooks/types.js";
import { createTextStripper, stripControls, terminalSafeJson } from "../terminal-text.js";

/** The `--output-format json` object (exactly these keys). */
export interface RunJson {
  result: string;
  sessionId: string;
  turns: number;
  usage: {
    promptTokens: number;
    cacheHitTokens: number;
    cacheMissTokens: number;
    completionTokens: number;
  };
  costUsd: number;
  cacheHitRatio: number;
  toolCalls: Array<{ name: string; input: Record<string, unknown>; status: ToolCallStatus }>;
  hookRuns: Array<{ event: string; source: string; outcome: string; durationMs: number }>;
}

/** What a finished run produced: the JSON summary and, when it failed, a one-line reason. */
export interface RunSummary {
  json: RunJson;
  failure: string | null;
}

/** Where the printer writes. */
export interface RunStreams {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Prints events as they come and the summary at the end. */
export interface RunPrinter {
  event(ev: AgentEvent): void;
  finish(summary: RunSummary): void;
  /** Whether `line` was already printed on stderr (so a failure is not said twice). */
  shownOnStderr(line: string): boolean;
}

/** Creates the printer for one output format. */
export function createRunPrinter(
  format: "text" | "json" | "stream-json",
  out: RunStreams,
): RunPrinter {
  if (format === "json") {
    return {
      event: () => {},
      finish: (s) => out.stdout(`${terminalSafeJson(s.json)}\n`),
      shownOnStderr: () => false,
    };
  }
  if (format === "stream-json") {
    return {
      event: (ev) => out.stdout(`${terminalSafeJson(ev)}\n`),
      finish: (s) => out.stdout(`${terminalSafeJson({ type: "result", ...s.json })}\n`),
      shownOnStderr: () => false,
    };
  }
  let endsWithNewline = true;
  const notices = new Set<string>();
  // Model and hook text may carry escape sequences (OSC 52, clear screen): never written raw,
  // to a terminal or a pipe. Keel's text output itself has none.
  const stripper = createTextStripper();
  const text = (t: string) => {
    const clean = stripper.push(t);
    if (clean === "") return;
    out.stdout(clean);
    endsWithNewline = clean.endsWith("\n");
  };
  const err = { stderr: (line: string) => out.stderr(stripControls(line)) };
  return {
    event: (ev) => {
      switch (ev.type) {
        case "text_delta":
          text(ev.text);
          break;
        case "request_start":
        case "turn_end":
          if (!endsWithNewline) text("\n");
          break;
        case "tool_call":
          err.stderr(`keel: ${ev.name} ${preview(ev.input)}\n`);
          break;
        case "tool_result":
          if (ev.status !== "ok")
            err.stderr(`keel: ${ev.name} ${ev.status}: ${firstLine(ev.content)}\n`);
          break;
        case "hook_run":
          // Passes and blocks speak through their effects; a hook that failed would be silent.
          if (
            ev.run.outcome === "warn" ||
            ev.run.outcome === "error" ||
            ev.run.outcome === "timeout"
          ) {
            err.stderr(`keel: ${hookFailure(ev.run)}\n`);
          }
          break;
        case "notice":
          err.stderr(`keel: ${ev.text}\n`);
          notices.add(ev.text.replace(/\s*[\r\n]+\s*/g, " ").trim());
          break;
        case "harvest":
          for (const line of planLines(ev.plan)) out.stderr(`keel: ${line}\n`);
          break;
        case "branch":
          out.stderr(`keel: ${branchLine(ev)}\n`);
          break;
        case "subagent":
          // A sub-agent's calls, one line each, under its task.
          if (ev.event.type === "tool_call") {
            out.stderr(`keel:   ${ev.agentType} → ${ev.event.name} ${preview(ev.event.input)}\n`);
          }
          break;
        default:
          break;
      }
    },
    finish: () => {
      const rest = stripper.flush();
      if (rest !== "") text(rest);
      if (!endsWithNewline) text("\n");
    },
    shownOnStderr: (line) => notices.has(line),
  };
}

/** One line about a hook run that did not pass: which hook, what happened, its message. */
function hookFailure(run: HookRunRecord): string {
  const what =
    run.outcome === "timeout" ? "timed out" : run.outcome === "warn" ? "warning" : "error";
  const detail = firstLine(run.message ?? run.stderr ?? "").trim();
  return `${run.event} hook ${firstLine(run.command)} ${what}${detail ? `: ${detail}` : ""}`;
}

function preview(input: Record<string, unknown>): string {
  const s = JSON.stringify(input);
  return s.length > 120 ? `${s.slice(0, 119)}…` : s;
}

function firstLine(text: string): string {
  const line = text.split("\n")[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
