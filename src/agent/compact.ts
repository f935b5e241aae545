/**
 * Compaction, the one sanctioned rewrite of the log, manual or automatic: PreCompact may cancel
 * it; one model call writes a summary; the log becomes a single user message holding it (a
 * deliberate, counted cache miss, reported as `compacted`); then PostCompact and
 * SessionStart(compact). The session's memory goes into the next user message again.
 */
import { shrunkView } from "./auto-compact.js";
import type { AgentCore } from "./core.js";
import type { AgentEvent } from "./events.js";
import { fireHook, isVeto, vetoingHooks, vetoReason } from "./hook-adapter/fire.js";
import { fireInstructionsLoaded } from "./memory-load.js";

const SUMMARY_REQUEST = `Summarize this conversation so far so that the work can continue from the summary alone. Do not call any tools. Include: the user's goals and instructions, decisions made, files read or changed (with paths), commands run and their results, open problems, and the next steps. Be concise and factual.`;

/** Options of one compaction. */
export interface CompactOptions {
  instructions?: string;
  signal: AbortSignal;
  /** "auto" when the threshold or a context-length error asked for it (default "manual"). */
  trigger?: "manual" | "auto";
  /** The summary request itself must shrink the conversation (after a context-length error). */
  overflow?: boolean;
}

/** Runs a compaction; returns whether the log was rewritten. Never throws. */
export async function* compactLog(
  core: AgentCore,
  opts: CompactOptions,
): AsyncGenerator<AgentEvent, boolean> {
  const trigger = opts.trigger ?? "manual";
  const instructions = opts.instructions?.trim() ?? "";
  if (!(yield* preCompactAllows(core, opts, trigger, instructions))) return false;
  if (core.log.length === 0) {
    yield { type: "notice", level: "info", text: "Nothing to compact yet." };
    return false;
  }
  const before = { promptTokens: core.lastPromptTokens, costUsd: core.costUsd };
  const { summary, failure } = yield* requestSummary(core, opts, instructions);
  if (summary === "") {
    yield { type: "error", message: `Compaction failed: ${failure}` };
    return false;
  }
  yield* replaceLogWithSummary(core, opts, trigger, summary, before);
  yield* afterCompaction(core, opts.signal, trigger, summary);
  return true;
}

/** Fires PreCompact; false (with a notice) when a hook cancelled the compaction. */
async function* preCompactAllows(
  core: AgentCore,
  opts: CompactOptions,
  trigger: "manual" | "auto",
  instructions: string,
): AsyncGenerator<AgentEvent, boolean> {
  const pre = yield* fireHook(
    core.hooks,
    core.info,
    "PreCompact",
    // null when none were given, as Claude Code 2.1.332 sends it.
    { trigger, custom_instructions: instructions === "" ? null : instructions },
    opts.signal,
  );
  if (isVeto(pre) || !pre.continue) {
    const why = isVeto(pre) ? vetoReason(pre) : (pre.stopReason ?? "stopped by a hook");
    yield {
      type: "notice",
      level: "warn",
      text: `Compaction cancelled by ${vetoingHooks(pre)}: ${why}`,
    };
    return false;
  }
  return true;
}

/** The one model call that writes the summary; `summary` is "" and `failure` says why when none. */
async function* requestSummary(
  core: AgentCore,
  opts: CompactOptions,
  instructions: string,
): AsyncGenerator<AgentEvent, { summary: string; failure: string }> {
  const ask = instructions ? `${SUMMARY_REQUEST}\n\nAlso: ${instructions}` : SUMMARY_REQUEST;
  const extra = [{ role: "user" as const, content: ask }];
  // The summary request extends the log (it is not stored), so it still hits the cache. After a
  // context-length error it cannot: it goes out shrunk, smaller at each try.
  const views = opts.overflow
    ? [shrunkView(core.log.stored(), 1), shrunkView(core.log.stored(), 2)]
    : [undefined];
  let summary = "";
  let failure = "";
  for (const view of views) {
    const reply = yield* core.request({
      turn: core.turns,
      signal: opts.signal,
      extra,
      ...(view !== undefined ? { view } : {}),
    });
    if (reply.kind === "error") {
      failure = reply.message;
      if (opts.signal.aborted) break;
      continue;
    }
    summary = reply.message.content?.trim() ?? "";
    failure = summary === "" ? "the model returned an empty summary." : "";
    break;
  }
  return { summary, failure };
}

/** Rewrites the log to the summary, records the compaction and reports it as `compacted`. */
async function* replaceLogWithSummary(
  core: AgentCore,
  opts: CompactOptions,
  trigger: "manual" | "auto",
  summary: string,
  before: { promptTokens: number; costUsd: number },
): AsyncGenerator<AgentEvent, void> {
  const promptTokensBefore = before.promptTokens;
  const result = core.log.compact([
    {
      role: "user",
      content: `This session was compacted. Summary of the conversation so far:\n\n${summary}`,
    },
  ]);
  core.session.recordCompaction(result.after, { turn: core.turns });
  core.compactionLog.push({
    trigger,
    reason: trigger === "manual" ? "manual" : opts.overflow ? "context_length" : "threshold",
    promptTokensBefore,
    promptTokensAfter: null,
    costUsd: core.costUsd - before.costUsd,
  });
  core.markCompacted();
  yield {
    type: "compacted",
    beforeMessages: result.before,
    afterMessages: result.after.length,
    trigger,
    promptTokensBefore,
    costUsd: core.costUsd - before.costUsd,
  };
}

/** PostCompact and SessionStart(compact); the memory and SessionStart context go in again. */
async function* afterCompaction(
  core: AgentCore,
  signal: AbortSignal,
  trigger: "manual" | "auto",
  summary: string,
): AsyncGenerator<AgentEvent, void> {
  yield* fireHook(
    core.hooks,
    core.info,
    "PostCompact",
    { trigger, compact_summary: summary },
    signal,
  );
  const start = yield* fireHook(
    core.hooks,
    core.info,
    "SessionStart",
    { source: "compact" },
    signal,
  );
  // The summary replaced the first user message: the memory it held goes in again.
  core.addPreamble(core.memoryText);
  yield* fireInstructionsLoaded(core, "compact", signal);
  core.addPending("SessionStart", start.additionalContext);
}
