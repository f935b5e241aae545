/**
 * Manual compaction, the one sanctioned rewrite of the log: PreCompact may cancel it; one model
 * call writes a summary; the log becomes a single user message holding it (a deliberate,
 * counted cache miss, reported as `compacted`); then PostCompact and SessionStart(compact).
 */
import type { AgentCore } from "./core.js";
import type { AgentEvent } from "./events.js";
import { fireHook, isVeto, vetoingHooks, vetoReason } from "./hook-fire.js";

const SUMMARY_REQUEST = `Summarize this conversation so far so that the work can continue from the summary alone. Do not call any tools. Include: the user's goals and instructions, decisions made, files read or changed (with paths), commands run and their results, open problems, and the next steps. Be concise and factual.`;

/** Runs a manual compaction. Never throws. */
export async function* compactLog(
  core: AgentCore,
  opts: { instructions?: string; signal: AbortSignal },
): AsyncGenerator<AgentEvent> {
  const instructions = opts.instructions?.trim() ?? "";
  const pre = yield* fireHook(
    core.hooks,
    core.info,
    "PreCompact",
    { trigger: "manual", custom_instructions: instructions },
    opts.signal,
  );
  if (isVeto(pre) || !pre.continue) {
    const why = isVeto(pre) ? vetoReason(pre) : (pre.stopReason ?? "stopped by a hook");
    yield {
      type: "notice",
      level: "warn",
      text: `Compaction cancelled by ${vetoingHooks(pre)}: ${why}`,
    };
    return;
  }
  if (core.log.length === 0) {
    yield { type: "notice", level: "info", text: "Nothing to compact yet." };
    return;
  }
  const ask = instructions ? `${SUMMARY_REQUEST}\n\nAlso: ${instructions}` : SUMMARY_REQUEST;
  // The summary request extends the log (it is not stored), so it still hits the cache.
  const reply = yield* core.request({
    turn: core.turns,
    signal: opts.signal,
    extra: [{ role: "user", content: ask }],
  });
  if (reply.kind === "error") {
    yield { type: "error", message: `Compaction failed: ${reply.message}` };
    return;
  }
  const summary = reply.message.content?.trim() ?? "";
  if (summary === "") {
    yield { type: "error", message: "Compaction failed: the model returned an empty summary." };
    return;
  }
  const result = core.log.compact([
    {
      role: "user",
      content: `This session was compacted. Summary of the conversation so far:\n\n${summary}`,
    },
  ]);
  core.session.recordCompaction(result.after, { turn: core.turns });
  yield { type: "compacted", beforeMessages: result.before, afterMessages: result.after.length };
  yield* fireHook(core.hooks, core.info, "PostCompact", { trigger: "manual" }, opts.signal);
  const start = yield* fireHook(
    core.hooks,
    core.info,
    "SessionStart",
    { source: "compact" },
    opts.signal,
  );
  core.addPending("SessionStart", start.additionalContext);
}
