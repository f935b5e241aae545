/**
 * `keel hooks test <Event>`: fires a synthetic payload through the real engine and shows what
 * each hook did and what the agent would decide.
 */

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { untrustedMatching } from "../../../agent/index.js";
import type {
  AsyncHookResult,
  EventPayload,
  HookDecision,
  HookDefinition,
  HookEngine,
  HookListing,
  HookRunRecord,
} from "../../../hooks/index.js";
import {
  EVENT_SPECS,
  explainFiring,
  type FiringExplanation,
  toolCatalog,
} from "../../../hooks/index.js";
import { BUILTIN_TOOL_HOOK_FACTS } from "../../../tools/hook-facts.js";
import {
  chunk,
  displayPath,
  pad,
  plural,
  TEXT_WIDTH,
  truncate,
  truncateMiddle,
  wrap,
} from "../../format/text.js";
import { stripControls, terminalSafeJson } from "../../terminal-text.js";
import { UserError } from "../../user-error.js";
import { buildTestPayload } from "./payload.js";
import { handlerSummary, problemLine } from "./render.js";
import { createTestRunners } from "./runners.js";
import { keelHomeDir, type Output, openEngine, resolveProjectDir } from "./shared.js";
import { mapTestTool } from "./test-tool.js";

/** Options of `keel hooks test`, as commander parses them. */
export interface HooksTestOptions {
  tool?: string;
  input?: string;
  prompt?: string;
  payload?: string;
  json?: boolean;
  cwd?: string;
  baseUrl?: string;
}

/** The exit status for a decision: 2 when the hooks stopped the action, else 0. */
export function exitStatusFor(decision: HookDecision["decision"]): number {
  return decision === "deny" || decision === "block" ? 2 : 0;
}

/**
 * The decision as reported: "untrusted" instead of "pass" when project hooks that match were
 * not run for lack of trust — a pass they never gave must not read as one (exit status 1).
 */
export function reportedDecision(decision: HookDecision, untrusted: number): string {
  return untrusted > 0 && exitStatusFor(decision.decision) === 0 ? "untrusted" : decision.decision;
}

/** The `--json` document: exactly the fields hook tooling relies on. */
export function decisionJson(
  decision: HookDecision,
  runs: HookRunRecord[],
  untrusted: readonly HookDefinition[] = [],
): unknown {
  return {
    event: decision.event,
    decision: reportedDecision(decision, untrusted.length),
    // Only when some were skipped: a trusted project's document keeps its fields.
    ...(untrusted.length > 0
      ? {
          untrusted: untrusted.map((h) => ({
            source: h.source.path,
            event: h.event,
            command: handlerSummary(h.handler),
          })),
        }
      : {}),
    reason: decision.reason,
    updatedInput: decision.updatedInput,
    additionalContext: decision.additionalContext,
    systemMessages: decision.systemMessages,
    continue: decision.continue,
    runs: runs.map((r) => ({
      source: r.source,
      dialect: r.dialect,
      command: r.command,
      outcome: r.outcome,
      exitCode: r.exitCode,
      durationMs: r.durationMs,
      stdout: r.stdout,
      stderr: r.stderr,
      truncated: r.truncated,
    })),
  };
}

/** Runs `keel hooks test`; returns the exit status. */
export async function runHooksTest(
  eventName: string,
  opts: HooksTestOptions,
  rawOut: Output,
): Promise<number> {
  // A hook's output may carry escape sequences: stripped everywhere but the exact --json text.
  const out: Output = {
    stdout: (t) => rawOut.stdout(opts.json === true ? t : stripControls(t)),
    stderr: (t) => rawOut.stderr(stripControls(t)),
  };
  const projectDir = await resolveProjectDir(opts.cwd);
  const mapped = opts.tool !== undefined ? mapTestTool(opts.tool, opts.input) : undefined;
  for (const note of mapped?.notes ?? []) out.stderr(`${note}\n`);
  const payload = buildTestPayload({
    event: eventName,
    projectDir,
    keelHome: keelHomeDir(),
    tool: mapped?.tool ?? opts.tool,
    input: mapped ? mapped.input : opts.input,
    prompt: opts.prompt,
    payload: opts.payload,
    session: await sessionModel(),
  });
  if (opts.baseUrl !== undefined && !/^https?:\/\/[^/\s]+/.test(opts.baseUrl)) {
    throw new UserError(`--base-url must be an http(s) URL, like http://127.0.0.1:8787`);
  }
  let created: HookEngine | undefined;
  const runners = createTestRunners({
    keelHome: keelHomeDir(),
    baseUrl: opts.baseUrl,
    payload,
    engine: () => {
      if (created === undefined) throw new Error("the hooks engine is not ready");
      return created;
    },
  });
  // A session gives SessionStart (Setup, CwdChanged, FileChanged) hooks a file to append
  // `export` lines to; scripts written for Claude Code read $CLAUDE_ENV_FILE under `set -u`
  // (plugin-dev's load-context.sh) and die without one. Owner-only, removed when the test ends.
  const envDir = mkdtempSync(join(tmpdir(), "keel-hooks-test-"));
  const envFile = join(envDir, "sessionstart-hook.sh");
  writeFileSync(envFile, "", { mode: 0o600 });
  try {
    created = await openEngine(projectDir, { ...runners, session: { envFile } });
    return await fireAndReport(created, payload, projectDir, opts, out);
  } finally {
    rmSync(envDir, { recursive: true, force: true });
  }
}

/** Fires the payload through the engine, prints what happened and returns the exit status. */
async function fireAndReport(
  engine: HookEngine,
  payload: EventPayload,
  projectDir: string,
  opts: HooksTestOptions,
  out: Output,
): Promise<number> {
  const listing = engine.listing();
  const catalog = toolCatalog(BUILTIN_TOOL_HOOK_FACTS);
  const explained = explainFiring(listing.hooks, payload, projectDir, catalog);
  // Matching project hooks that did not run for lack of trust (tested as if trusted).
  const untrusted = untrustedMatching(listing, payload, projectDir, catalog);
  const json = opts.json === true;
  // Human output explains every hook that did not run; with --json, stderr says it instead.
  const configErrors = reportProblems(listing, explained, { projectDir, out, notRun: json });
  const decision = await engine.fire({ event: payload.hook_event_name, payload });
  await engine.shutdown({ budgetMs: 10_000 });
  const asyncResults = engine.takeAsyncResults();
  const runs = [...decision.runs, ...asyncResults.map((r) => r.run)];
  if (json) {
    out.stdout(`${terminalSafeJson(decisionJson(decision, runs, untrusted))}\n`);
  } else {
    const notRun = explained.filter((e) => !e.runs);
    const text = renderTestResult(decision, payload, {
      projectDir,
      asyncResults,
      notRun,
      untrusted: untrusted.length,
    });
    out.stdout(`${text.join("\n")}\n`);
  }
  const status = exitStatusFor(decision.decision);
  return status === 0 && (configErrors || untrusted.length > 0) ? 1 : status;
}

/**
 * Writes configuration errors to stderr (so `--json` stays one object) and, when `notRun`,
 * the untrusted and inactive hooks of this event that will not run. Returns whether any
 * source or hook of the event has an error.
 */
function reportProblems(
  listing: HookListing,
  explained: readonly FiringExplanation[],
  ctx: { projectDir: string; out: Output; notRun: boolean },
): boolean {
  const { out, projectDir } = ctx;
  if (ctx.notRun) {
    const untrusted = explained.filter((e) => e.skip === "untrusted");
    if (untrusted.length > 0) {
      out.stderr(
        `keel: ${plural(untrusted.length, "untrusted project hook")} for this event did not run ` +
          "(run `keel hooks trust` to allow them):\n",
      );
      for (const { hook } of untrusted) {
        const src = displayPath(hook.source.path, { base: projectDir });
        out.stderr(`  ${handlerSummary(hook.handler)}  (${src}, ${hook.source.dialect})\n`);
      }
    }
    for (const e of explained.filter((x) => x.skip === "inactive")) {
      out.stderr(
        `keel: inactive hook not run: ${truncate(handlerSummary(e.hook.handler), 40)}: ${e.reason}\n`,
      );
    }
  }
  const errors = listing.problems.filter((p) => p.severity === "error");
  for (const p of errors) out.stderr(`keel: ${problemLine(p, { projectDir })}\n`);
  return (
    errors.length > 0 || explained.some((e) => e.hook.problems.some((p) => p.severity === "error"))
  );
}

function describePayload(payload: EventPayload): string {
  const parts: string[] = [payload.hook_event_name];
  if ("tool_name" in payload)
    parts.push(`tool ${payload.tool_name}`, JSON.stringify(payload.tool_input));
  if ("prompt" in payload) parts.push(`prompt ${JSON.stringify(payload.prompt)}`);
  const field = EVENT_SPECS[payload.hook_event_name].matcherField;
  if (field !== null && field !== "tool_name" && field !== "prompt" && field in payload) {
    parts.push(`${field} ${String(Reflect.get(payload, field))}`);
  }
  return parts.join(" · ");
}

/** JSON output shown on one line; anything else as written. */
function compactOutput(text: string): string {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{") || !trimmed.endsWith("}")) return trimmed;
  try {
    return JSON.stringify(JSON.parse(trimmed));
  } catch {
    return trimmed;
  }
}

function outputLines(label: string, text: string, indent: string): string[] {
  const compact = compactOutput(text);
  if (compact === "") return [];
  const lines = compact.split(/\r?\n/);
  const shown = lines.slice(0, 6);
  const width = TEXT_WIDTH - indent.length - label.length - 2;
  const rendered = shown.map(
    (l, i) =>
      `${indent}${i === 0 ? `${label}: ` : " ".repeat(label.length + 2)}${truncate(l, width)}`,
  );
  if (lines.length > shown.length) {
    const more = plural(lines.length - shown.length, "more line");
    rendered.push(`${indent}${" ".repeat(label.length + 2)}… ${more}`);
  }
  return rendered;
}

/** Columns for "exit N  D": the widest exit ("exit 255", "no exit") and duration ("9999 ms"). */
const RIGHT_WIDTH = 17;

/** A duration in at most 7 columns: "12 ms", "1258 ms", "12.3 s", "600 s". */
function durationText(ms: number): string {
  if (ms < 10_000) return `${Math.round(ms)} ms`;
  return ms < 100_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

function runLines(run: HookRunRecord, projectDir: string): string[] {
  const exit = run.exitCode === null ? "no exit" : `exit ${run.exitCode}`;
  // A fixed width for the right column, so how long a hook took (which varies with the
  // machine's load) never decides how much of its command is shown.
  const right = `${exit}  ${durationText(run.durationMs)}`.padStart(RIGHT_WIDTH);
  const head = `  ${pad(run.outcome, 9)} `;
  const room = TEXT_WIDTH - head.length - RIGHT_WIDTH - 2;
  const lines = [`${head}${pad(truncateMiddle(run.command, room), room)}  ${right}`];
  const indent = " ".repeat(head.length);
  const src = displayPath(run.source, { base: projectDir });
  lines.push(`${indent}${run.dialect} · ${run.scope} · ${src}${run.async ? " · async" : ""}`);
  const message = run.message?.trim() ?? "";
  if (message !== "") {
    lines.push(...wrap(message, { indent: `${indent}→ `, hangingIndent: `${indent}  ` }));
  }
  // Output that only repeats the message is not shown twice.
  if (run.stdout.trim() !== message) lines.push(...outputLines("stdout", run.stdout, indent));
  if (run.stderr.trim() !== message) lines.push(...outputLines("stderr", run.stderr, indent));
  if (run.truncated) lines.push(`${indent}(output truncated at the cap)`);
  return lines;
}

/** The human-readable result of `keel hooks test`. */
export function renderTestResult(
  decision: HookDecision,
  payload: EventPayload,
  ctx: {
    projectDir: string;
    asyncResults: AsyncHookResult[];
    notRun?: readonly FiringExplanation[];
    /** Matching project hooks not run for lack of trust. */
    untrusted?: number;
  },
): string[] {
  const out = chunk(describePayload(payload));
  out.push("");
  const syncRuns = decision.runs;
  if (syncRuns.length === 0) out.push("  No hooks ran.");
  for (const run of syncRuns) out.push(...runLines(run, ctx.projectDir));
  out.push(...notRunLines(ctx.notRun ?? [], ctx.projectDir));
  out.push(...asyncLines(ctx.asyncResults, ctx.projectDir));
  out.push("");
  out.push(...decisionLines(decision, ctx.untrusted ?? 0));
  return out;
}

/** Matching hooks that did not run, each with why. */
function notRunLines(notRun: readonly FiringExplanation[], projectDir: string): string[] {
  if (notRun.length === 0) return [];
  const out = ["", "Not run:"];
  for (const { hook, reason } of notRun) {
    let src = displayPath(hook.source.path, { base: projectDir });
    if (hook.location) src += `:${hook.location.line}`;
    out.push(
      ...wrap(`${handlerSummary(hook.handler)}  (${src})`, {
        indent: "  ",
        breakLongWords: true,
      }),
      ...wrap(reason ?? "", { indent: "    → ", hangingIndent: "      " }),
    );
  }
  return out;
}

/** Async hooks' runs, and what of theirs reaches the next turn. */
function asyncLines(asyncResults: readonly AsyncHookResult[], projectDir: string): string[] {
  if (asyncResults.length === 0) return [];
  const out = ["", "Async hooks (their output reaches the agent with the next turn):"];
  for (const r of asyncResults) {
    out.push(...runLines(r.run, projectDir));
    const indent = " ".repeat(12);
    if (r.additionalContext !== null) {
      out.push(
        ...wrap(`next turn, for the model: ${r.additionalContext}`, {
          indent,
          hangingIndent: `${indent}  `,
        }),
      );
    }
    if (r.systemMessage !== null) {
      out.push(
        ...wrap(`next turn, for the user: ${r.systemMessage}`, {
          indent,
          hangingIndent: `${indent}  `,
        }),
      );
    }
  }
  return out;
}

/** The combined decision and everything it carries (reason, changes, messages, stop). */
function decisionLines(decision: HookDecision, untrusted: number): string[] {
  const out: string[] = [];
  const status = exitStatusFor(decision.decision);
  if (reportedDecision(decision, untrusted) === "untrusted") {
    out.push(
      `Decision: not run: untrusted (exit status 1) — ${plural(untrusted, "matching project hook")} did not run because the project's hooks are not trusted; the agent would not run them either (keel hooks trust)`,
    );
  } else {
    out.push(`Decision: ${decision.decision}${status === 2 ? " (exit status 2)" : ""}`);
  }
  if (decision.reason !== null)
    out.push(...wrap(decision.reason, { indent: "Reason: ", hangingIndent: "        " }));
  if (decision.updatedInput !== null) {
    out.push(
      ...wrap(JSON.stringify(decision.updatedInput), {
        indent: "Updated input: ",
        hangingIndent: "  ",
      }),
    );
  }
  if (decision.updatedToolOutput !== null) {
    out.push("Updated tool output:", ...wrap(decision.updatedToolOutput, { indent: "  " }));
  }
  if (decision.additionalContext !== null) {
    out.push(
      "Additional context (for the model):",
      ...wrap(decision.additionalContext, { indent: "  " }),
    );
  }
  for (const m of decision.systemMessages) {
    out.push(...wrap(m, { indent: "System message (for the user): ", hangingIndent: "  " }));
  }
  if (!decision.continue) {
    out.push(
      `Continue: false — the turn ends${decision.stopReason ? `: ${decision.stopReason}` : ""}`,
    );
  }
  return out;
}

/**
 * The model and effort level `keel run` would use here (config.json and the environment), as
 * every real payload carries them: the level as the model takes it (llm/effort.ts), none when it
 * takes none. Loaded on demand, so `keel hooks list` stays light (test/cli/lazy-start.test.ts).
 */
async function sessionModel(): Promise<{ model?: string; effortLevel?: string }> {
  const { loadConfig } = await import("../../llm-config.js");
  const { resolveEffort } = await import("../../../llm/index.js");
  const loaded = await loadConfig({ keelHome: keelHomeDir(), env: process.env });
  if (!loaded.ok) return {};
  const { model, effort } = loaded.config;
  const resolved = effort ? resolveEffort(model, effort) : null;
  return { model, ...(resolved?.ok ? { effortLevel: resolved.level } : {}) };
}
