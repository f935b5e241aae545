/** How `keel run` prints: streamed text, one JSON object at the end, or one JSON line per event. */

import type { AgentEvent, AgentStats, ToolCallStatus } from "../../agent/index.js";
import { branchLine, planLines } from "../../agent/index.js";
import type { HookRunRecord } from "../../hooks/index.js";
import { createTextStripper, stripControls, terminalSafeJson } from "../terminal-text.js";

/** Why a turn ended, as its `turn_end` event says. */
export type TurnStopReason = Extract<AgentEvent, { type: "turn_end" }>["stopReason"];

/** The `--output-format json` object (exactly these keys). */
export interface RunJson {
  result: string;
  /** True exactly when keel run exits 1: the turn failed, or the session could not be written. */
  isError: boolean;
  /** How the turn ended; "error" also when it never ran. */
  stopReason: TurnStopReason;
  /** Why the run failed (the line also said on stderr); null when it did not. */
  error: string | null;
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
  /** Warning and error notices and failed hooks (also said on stderr), in order, each once. */
  warnings: string[];
  /** With --json-schema only: the answer parsed and valid against the schema (null: it was not). */
  structured_output?: unknown;
}

/** What a finished run produced: the JSON summary and, when it failed, a one-line reason. */
export interface RunSummary {
  json: RunJson;
  failure: string | null;
}

/** What the events of a run said, kept as they pass: never the events themselves. */
export interface RunOutcome {
  result: string;
  stopReason: TurnStopReason;
  /** Why the turn failed (one line), or null. */
  failure: string | null;
  toolCalls: RunJson["toolCalls"];
  hookRuns: RunJson["hookRuns"];
  warnings: string[];
}

/** At most this many distinct warnings are kept for the JSON summary. */
const MAX_WARNINGS = 50;

/** Folds a run's events into its outcome as they pass. */
export interface RunTally {
  add(ev: AgentEvent): void;
  outcome(): RunOutcome;
}

/**
 * Creates the tally of one run. It keeps only what the summary needs (the answer, each call's
 * name, input and status, each hook run): a tool's streamed output and its result text are
 * dropped as they pass, so a command that prints gigabytes costs no memory here.
 * `hint` adds what to check to a model request's error message.
 */
export function createRunTally(hint: (message: string) => string = (m) => m): RunTally {
  let result = "";
  let stopReason: TurnStopReason | null = null;
  let failure: string | null = null;
  let lastError: string | null = null;
  let lastNotice: string | null = null;
  const toolCalls: RunJson["toolCalls"] = [];
  // Calls listed in the order the model made them: concurrent `task` calls (agent/parallel-
  // tasks.ts) may finish in another order.
  const callOrder = new Map<string, number>();
  const callSeq: number[] = [];
  const hookRuns: RunJson["hookRuns"] = [];
  const warnings = new Set<string>();
  // Bounded: a notice per tool call in a long run is still a short list.
  const warn = (line: string) => {
    if (warnings.size < MAX_WARNINGS) warnings.add(oneLine(line));
  };
  return {
    add: (ev) => {
      // Hooks that ran inside a sub-agent ran in this run too.
      const run =
        ev.type === "hook_run"
          ? ev.run
          : ev.type === "subagent" && ev.event.type === "hook_run"
            ? ev.event.run
            : null;
      if (run !== null) {
        hookRuns.push({
          event: run.event,
          source: run.source,
          outcome: run.outcome,
          durationMs: run.durationMs,
        });
        // The line stderr gets for a hook that failed (sub-agents' hooks are not said there).
        if (ev.type === "hook_run" && isFailedHook(run)) warn(hookFailure(run));
      } else if (ev.type === "tool_call") {
        callOrder.set(ev.id, callOrder.size);
      } else if (ev.type === "tool_result") {
        const seq = callOrder.get(ev.id) ?? callOrder.size;
        let at = toolCalls.length;
        while (at > 0 && (callSeq[at - 1] ?? 0) > seq) at--;
        toolCalls.splice(at, 0, { name: ev.name, input: ev.input, status: ev.status });
        callSeq.splice(at, 0, seq);
      } else if (ev.type === "error") {
        lastError = ev.message;
      } else if (ev.type === "notice" && ev.level !== "info") {
        lastNotice = ev.text;
        warn(ev.text);
      } else if (ev.type === "turn_end") {
        result = ev.text;
        stopReason = ev.stopReason;
        if (ev.stopReason === "error") failure = hint(lastError ?? "the model request failed");
        else if (ev.stopReason === "aborted") failure = "interrupted";
        else if (ev.stopReason === "blocked") failure = lastNotice ?? "the prompt was blocked";
        else if (ev.stopReason === "max_turns") failure = lastNotice ?? "too many model requests";
      }
    },
    outcome: () => {
      const why = stopReason === null ? (lastError ?? "the turn did not run") : failure;
      return {
        result,
        stopReason: stopReason ?? "error",
        failure: why === null ? null : oneLine(why),
        toolCalls,
        hookRuns,
        warnings: [...warnings],
      };
    },
  };
}

/** The summary printed at the end; `failure` (one line, or null) decides isError and error. */
export function runSummary(
  outcome: RunOutcome,
  stats: AgentStats,
  failure: string | null,
): RunSummary {
  return {
    failure,
    json: {
      result: outcome.result,
      isError: failure !== null,
      stopReason: outcome.stopReason,
      error: failure,
      sessionId: stats.sessionId,
      turns: stats.requests,
      usage: {
        promptTokens: stats.usage.promptTokens,
        cacheHitTokens: stats.usage.cacheHitTokens,
        cacheMissTokens: stats.usage.cacheMissTokens,
        completionTokens: stats.usage.completionTokens,
      },
      costUsd: stats.costUsd,
      cacheHitRatio: stats.cacheHitRatio,
      toolCalls: outcome.toolCalls,
      hookRuns: outcome.hookRuns,
      warnings: outcome.warnings,
    },
  };
}

/** The first stream-json line: which session this run writes, before anything can go wrong. */
export interface RunInit {
  sessionId: string;
  /** Whether --continue / --resume reopened an existing session (false: a new one). */
  resumed: boolean;
  model: string;
  cwd: string;
  keelVersion: string;
}

/**
 * Bytes (UTF-8) of one tool call's output that stream-json writes as `tool_output` events; the
 * rest is counted and said once in a `tool_output_omitted` event. The model sees at most ~30 KB
 * of a command's output, so a consumer showing progress loses nothing it could act on, and a
 * command printing without end (`yes`, `cat /dev/zero`) no longer writes gigabytes.
 */
export const STREAM_TOOL_OUTPUT_BYTES = 64 * 1024;

/** Where the printer writes. */
export interface RunStreams {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Prints events as they come and the summary at the end. */
export interface RunPrinter {
  /** Called once, before any event: stream-json's `system` line. */
  init(info: RunInit): void;
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
  if (format === "stream-json") return createStreamJsonPrinter(out);
  const warnings = stderrWarnings(out);
  if (format === "json") return createJsonPrinter(out, warnings);
  return createTextPrinter(out, warnings);
}

/** What the text and json formats say on stderr, and the notices said (shownOnStderr). */
interface StderrWarnings {
  /** Writes to stderr without control characters. */
  readonly err: { stderr: (line: string) => void };
  /** What a script must hear whatever the format: notices and hooks that failed. */
  readonly warn: (ev: AgentEvent) => void;
  readonly notices: ReadonlySet<string>;
}

function stderrWarnings(out: RunStreams): StderrWarnings {
  const notices = new Set<string>();
  const err = { stderr: (line: string) => out.stderr(stripControls(line)) };
  const warn = (ev: AgentEvent): void => {
    if (ev.type === "notice") {
      err.stderr(`keel: ${ev.text}\n`);
      notices.add(oneLine(ev.text));
    } else if (ev.type === "hook_run" && isFailedHook(ev.run)) {
      err.stderr(`keel: ${hookFailure(ev.run)}\n`);
    }
  };
  return { err, warn, notices };
}

/**
 * json: stdout is the one JSON object; what the text format says on stderr about notices and
 * failed hooks is said there too (a project hook that will not run is not kept quiet).
 */
function createJsonPrinter(out: RunStreams, { warn, notices }: StderrWarnings): RunPrinter {
  return {
    init: () => {},
    event: warn,
    finish: (s) => out.stdout(`${terminalSafeJson(s.json)}\n`),
    shownOnStderr: (line) => notices.has(line),
  };
}

/** text: the answer on stdout; tool calls, refusals, hook messages and notices on stderr. */
function createTextPrinter(out: RunStreams, { err, warn, notices }: StderrWarnings): RunPrinter {
  let endsWithNewline = true;
  // Model and hook text may carry escape sequences (OSC 52, clear screen): never written raw,
  // to a terminal or a pipe. Keel's text output itself has none.
  const stripper = createTextStripper();
  const text = (t: string) => {
    const clean = stripper.push(t);
    if (clean === "") return;
    out.stdout(clean);
    endsWithNewline = clean.endsWith("\n");
  };
  return {
    init: () => {},
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
          // A refusal is what the user must act on (which file, which hook, how to allow it):
          // said whole, on one line; a failed command's output is only previewed.
          if (ev.status === "blocked")
            err.stderr(`keel: ${ev.name} blocked: ${blockLine(ev.content)}\n`);
          else if (ev.status !== "ok")
            err.stderr(`keel: ${ev.name} ${ev.status}: ${resultLine(ev.content)}\n`);
          break;
        case "hook_run":
        case "notice":
          warn(ev);
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

/**
 * stream-json: one line per event, the first being `system`/`init`. Each tool call's streamed
 * output stops after STREAM_TOOL_OUTPUT_BYTES; how much was left out is said once, just before
 * that call's `tool_result` (a sub-agent's calls too: their ids are unique as well).
 */
function createStreamJsonPrinter(out: RunStreams): RunPrinter {
  const line = (value: unknown) => out.stdout(`${terminalSafeJson(value)}\n`);
  /** Output bytes per running call: only counters, dropped when the call ends. */
  const streamed = new Map<string, { sent: number; omitted: number }>();
  /** The part of `ev`'s text still within its call's budget (null: none of it). */
  const capped = (ev: { id: string; text: string }): string | null => {
    const seen = streamed.get(ev.id) ?? { sent: 0, omitted: 0 };
    streamed.set(ev.id, seen);
    const room = STREAM_TOOL_OUTPUT_BYTES - seen.sent;
    // Once something was left out, nothing later is written: the stream has no holes.
    if (room <= 0 || seen.omitted > 0) {
      // Only counted from here on: no copy of what is not written.
      seen.omitted += Buffer.byteLength(ev.text, "utf8");
      return null;
    }
    const bytes = Buffer.from(ev.text, "utf8");
    if (bytes.length <= room) {
      seen.sent += bytes.length;
      return ev.text;
    }
    // Cut before a UTF-8 continuation byte, so no character is split.
    let cut = room;
    while (cut > 0 && ((bytes[cut] ?? 0) & 0xc0) === 0x80) cut -= 1;
    seen.sent += cut;
    seen.omitted += bytes.length - cut;
    return cut === 0 ? null : bytes.subarray(0, cut).toString("utf8");
  };
  const ended = (id: string) => {
    const seen = streamed.get(id);
    streamed.delete(id);
    if (seen !== undefined && seen.omitted > 0) {
      line({
        type: "tool_output_omitted",
        id,
        omittedBytes: seen.omitted,
        streamedBytes: seen.sent,
      });
    }
  };
  return {
    init: (info) => line({ type: "system", subtype: "init", ...info }),
    event: (ev) => {
      const inner = ev.type === "subagent" ? ev.event : ev;
      if (inner.type === "tool_output") {
        const text = capped(inner);
        if (text === null) return;
        line(ev.type === "subagent" ? { ...ev, event: { ...inner, text } } : { ...inner, text });
        return;
      }
      if (inner.type === "usage") {
        // `turnCostUsd` is one request's cost, not the turn's: the field a consumer should read
        // is named for what it is (the old name stays for consumers that already read it).
        const usage = { ...inner, requestCostUsd: inner.turnCostUsd };
        line(ev.type === "subagent" ? { ...ev, event: usage } : usage);
        return;
      }
      if (inner.type === "tool_result") ended(inner.id);
      line(ev);
    },
    finish: (s) => {
      // Calls that never reported a result (an interrupted run) still say what was left out.
      for (const id of [...streamed.keys()]) ended(id);
      line({ type: "result", ...s.json });
    },
    shownOnStderr: () => false,
  };
}

/** One line about a hook run that did not pass: which hook, what happened, its message. */
/** Passes and blocks speak through their effects; a hook that failed would be silent. */
function isFailedHook(run: HookRunRecord): boolean {
  return run.outcome === "warn" || run.outcome === "error" || run.outcome === "timeout";
}

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
  return shorten(text.split("\n")[0] ?? "");
}

/** The closing note of a shell result: how the command ended (see src/tools/shell.ts). */
const SHELL_ENDING =
  /^\[(exit code: .*|timed out .*|killed by .*|interrupted .*|could not run .*)\]$/;

/**
 * One line for a failed call. A shell result ends with how the command ended ("[timed out
 * after 1000 ms; …]", "[exit code: 2]"): that comes first, since the output's first line alone
 * ("line1") does not say what went wrong.
 */
function resultLine(content: string): string {
  const lines = content.split("\n");
  const first = lines[0] ?? "";
  const ending = lines.length > 1 ? lines.findLast((l) => SHELL_ENDING.test(l)) : undefined;
  if (ending === undefined) return shorten(first);
  const how = ending.slice(1, -1);
  return shorten(first === "(no output)" ? how : `${how} (output: ${first})`);
}

/** A refusal on one line, whole up to BLOCK_LINE_MAX characters (then cut between words). */
function blockLine(content: string): string {
  return shorten(oneLine(content), BLOCK_LINE_MAX, 1000);
}

/** Beyond this a refusal is a hook dumping its output, not a reason to read. */
const BLOCK_LINE_MAX = 2000;

/**
 * At most `max` characters (240), cut in the middle: a refusal's end says how to allow the call
 * ("The user can re-run with --yes, …"), and its start names the call. The cut falls between
 * words, so a path or command is shown whole or not at all, never as half of itself.
 */
function shorten(line: string, max = 240, tail = 150): string {
  if (line.length <= max) return line;
  const head = line.slice(0, max - tail - 1);
  const end = line.slice(-tail);
  const headCut = head.lastIndexOf(" ");
  const tailCut = end.indexOf(" ");
  return `${headCut > 0 ? head.slice(0, headCut) : head} … ${tailCut >= 0 ? end.slice(tailCut + 1) : end}`;
}

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, " ").trim();
}
