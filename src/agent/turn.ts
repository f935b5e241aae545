/**
 * One user turn as an event stream: UserPromptSubmit, the user message, then model requests
 * and tool calls until the model answers without tools and the Stop hooks let it stop.
 */
import { randomUUID } from "node:crypto";
import type { HookDecision } from "../hooks/index.js";
import { MAX_STOP_BLOCKS_IN_A_ROW } from "../hooks/index.js";
import { modelTakesImages } from "../llm/index.js";
import { SESSION_TITLE_EVENT } from "../session/index.js";
import { CONTINUE_AFTER_COMPACTION, contextWindow, isContextLengthError } from "./auto-compact.js";
import { compactLog } from "./compact.js";
import type { AgentCore } from "./core.js";
import type { RequestReply } from "./core-types.js";
import type { AgentEvent } from "./events.js";
import {
  fireHook,
  hookContextBlock,
  isVeto,
  passDecision,
  vetoingHooks,
  vetoReason,
} from "./hook-adapter/fire.js";
import { type BatchCall, firePostToolBatch, fireStopFailure } from "./hook-adapter/moments.js";
import {
  contextForModel,
  promptBlockedText,
  stopBlockingErrors,
  stopFeedbackText,
} from "./hook-adapter/text.js";
import { noVisionMessage } from "./images.js";
import { concurrentTaskRun, runConcurrently } from "./parallel-tasks.js";
import { dispatchToolCall, type PreparedCall } from "./pipeline/index.js";
import {
  finishNote,
  repairAssistantMessage,
  stormAbortMessage,
  stormStubResult,
} from "./repair/index.js";

type StopReason = Extract<AgentEvent, { type: "turn_end" }>["stopReason"];

/** Runs one turn of `core`. Never throws: failures end the stream with `error` + `turn_end`. */
export async function* runTurn(
  core: AgentCore,
  prompt: string,
  signal: AbortSignal,
  images: readonly string[] = [],
): AsyncGenerator<AgentEvent> {
  const turn = ++core.turns;
  core.scratch.reset();
  core.storm.reset();
  yield { type: "turn_start", turn, prompt };
  const end = (stopReason: StopReason, text = ""): AgentEvent => turnEnd(turn, stopReason, text);

  yield* core.collectAsyncResults();
  core.info.promptId = randomUUID();
  const refused = yield* submitPrompt(core, prompt, signal, images);
  if (refused !== null) {
    yield end(refused.stopReason, refused.text);
    return;
  }

  let requests = 0;
  let lastText = "";
  let overflowRetried = false;
  for (;;) {
    const limit = yield* turnLimitReached(core, requests, signal);
    if (limit !== null) {
      yield end(limit, lastText);
      return;
    }
    // Async hooks that finished while tools ran: their context goes with this request.
    if (requests > 0) yield* core.collectAsyncResults({ midTurn: true });
    if (requests > 0 && core.needsCompaction()) {
      yield* compactInTurn(core, signal, false);
    }
    requests += 1;
    const reply = yield* core.request({ turn, signal });
    if (reply.kind === "error") {
      const retry: boolean | null = overflowRetried
        ? null
        : yield* retryOnOverflow(core, reply.message, signal);
      overflowRetried ||= retry !== null;
      if (retry === true) {
        requests -= 1;
        continue;
      }
      const aborted = signal.aborted;
      yield* requestFailed(core, reply, lastText, aborted);
      yield end(aborted ? "aborted" : "error", lastText);
      return;
    }
    const answer = yield* takeAnswer(core, reply);
    lastText = answer.text;
    if (answer.noAnswer !== null) {
      yield* fireStopFailure(core.hooks, core.info, answer.noAnswer, lastText);
      yield { type: "error", message: answer.noAnswer };
      yield end("error", lastText);
      return;
    }

    if (answer.calls.length > 0) {
      const ran = yield* runAnswerCalls(core, answer.calls, signal);
      if ("stopReason" in ran) {
        yield end(ran.stopReason, lastText);
        return;
      }
      if (ran.finished === null) continue;
      lastText = ran.finished;
    }

    const stop = yield* stopHooks(core, lastText, signal);
    if (stop === "continue") continue;
    yield end(stop, lastText);
    return;
  }
}

/** The event that closes turn `turn`. */
function turnEnd(turn: number, stopReason: StopReason, text: string): AgentEvent {
  return { type: "turn_end", turn, text, stopReason };
}

/** Whether the turn must end before its next request: interrupted, or at the per-turn limit. */
async function* turnLimitReached(
  core: AgentCore,
  requests: number,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, StopReason | null> {
  if (signal.aborted) return "aborted";
  if (requests >= core.maxTurns) {
    yield {
      type: "notice",
      level: "warn",
      text: `Stopped after ${core.maxTurns} model requests in this turn (the per-turn limit).`,
    };
    return "max_turns";
  }
  return null;
}

/**
 * Runs the tool calls of an answer. The turn's end when the storm breaker, a hook or the user
 * stopped it; otherwise the text a `finish` call left (null: ask the model again).
 */
async function* runAnswerCalls(
  core: AgentCore,
  calls: RepairedCalls,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, { stopReason: StopReason } | { finished: string | null }> {
  const ran = yield* runToolBatch(core, calls, signal);
  if (ran.storm !== null) {
    yield { type: "error", message: ran.storm };
    return { stopReason: "error" };
  }
  if (ran.stopReason !== null) {
    yield { type: "notice", level: "warn", text: ran.stopReason };
    return { stopReason: "hook_stop" };
  }
  if (signal.aborted) return { stopReason: "aborted" };
  return { finished: core.finish?.take() ?? null };
}

/**
 * A request the model refused as too long for its context window: compact (a shrunk summary
 * request) so the request can be retried once. True: compacted, retry; false: tried and could
 * not; null: not that failure (or the user interrupted).
 */
async function* retryOnOverflow(
  core: AgentCore,
  message: string,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, boolean | null> {
  if (signal.aborted || !isContextLengthError(message)) return null;
  yield {
    type: "notice",
    level: "warn",
    text: "The conversation no longer fits the model's context window; compacting and retrying.",
  };
  return yield* compactInTurn(core, signal, true);
}

/** A request that failed: an interrupted answer is kept in the log; any other failure fires
 *  StopFailure and is said as an error. */
async function* requestFailed(
  core: AgentCore,
  reply: Extract<RequestReply, { kind: "error" }>,
  lastText: string,
  aborted: boolean,
): AsyncGenerator<AgentEvent> {
  if (aborted) {
    keepInterruptedAnswer(core, reply.shownText ?? "");
    return;
  }
  yield* fireStopFailure(core.hooks, core.info, reply.message, lastText);
  yield { type: "error", message: reply.message };
}

/**
 * UserPromptSubmit, then the user message: the prompt opens the turn unless a hook refused
 * it, in which case what the turn ends with (its stop reason and text) comes back.
 */
async function* submitPrompt(
  core: AgentCore,
  prompt: string,
  signal: AbortSignal,
  images: readonly string[],
): AsyncGenerator<AgentEvent, { stopReason: StopReason; text: string } | null> {
  // A sub-agent's prompt comes from the model, not the user: UserPromptSubmit is not for it.
  const submit = core.isSubagent
    ? passDecision("UserPromptSubmit")
    : yield* fireHook(core.hooks, core.info, "UserPromptSubmit", { prompt }, signal);
  if (isVeto(submit)) {
    yield {
      type: "notice",
      level: "error",
      text: `Prompt blocked by ${vetoingHooks(submit)}: ${vetoReason(submit)}`,
    };
    return { stopReason: "blocked", text: promptBlockedText(submit, prompt) };
  }
  if (!submit.continue) {
    yield { type: "notice", level: "warn", text: submit.stopReason ?? "Stopped by a hook." };
    // Claude Code's result words (2.1.332, measured by compat:claude): the run says why it stopped.
    const text = `Operation stopped by hook: ${submit.stopReason ?? ""}`.trimEnd();
    return { stopReason: "hook_stop", text };
  }
  // Claude Code's `sessionTitle`: the session is listed under it (`keel sessions`, /resume).
  const title = submit.extras?.sessionTitle?.trim();
  if (title) core.session.recordEvent?.(SESSION_TITLE_EVENT, { title: title.slice(0, 200) });
  // Over the threshold after the last turn: compact first, so the prompt opens the new log.
  if (core.needsCompaction()) yield* compactLog(core, { signal, trigger: "auto" });
  core.appendUserTurn(prompt, contextForModel(submit), images);
  return null;
}

/** A model reply that came back. */
type Reply = Extract<RequestReply, { kind: "message" }>;
/** The tool calls of a repaired reply. */
type RepairedCalls = ReturnType<typeof repairAssistantMessage>["toolCalls"];

/**
 * The reply, repaired (leaked calls, truncated JSON), into the log; its repair notes are said.
 * `noAnswer` says why a reply the provider stopped before any answer (budget spent on
 * reasoning, filtered, overloaded) is a failed turn rather than an empty success.
 */
async function* takeAnswer(
  core: AgentCore,
  reply: Reply,
): AsyncGenerator<AgentEvent, { calls: RepairedCalls; text: string; noAnswer: string | null }> {
  const repaired = repairAssistantMessage({
    message: reply.message,
    allowedTools: core.repairTools,
    finishReason: reply.finishReason,
  });
  const calls = repaired.toolCalls;
  const noAnswer =
    calls.length === 0 && repaired.text.trim() === "" ? finishNote(reply.finishReason, true) : null;
  for (const note of repaired.notes) {
    if (note !== noAnswer) yield { type: "notice", level: "warn", text: note };
  }
  core.log.append(repaired.message);
  return { calls, text: repaired.text, noAnswer };
}

/**
 * Runs the tool calls of one reply, their results into the log in call order, then
 * PostToolBatch. What stopped the batch comes back: a hook's stop reason, or the storm
 * breaker's message (the calls after it get a "Not run" result).
 */
async function* runToolBatch(
  core: AgentCore,
  calls: RepairedCalls,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, { stopReason: string | null; storm: string | null }> {
  let stopReason: string | null = null;
  let storm: string | null = null;
  const batch: BatchCall[] = [];
  // The hooks' context of every call: one message after all the batch's tool results (the
  // API wants the results right after the calls), as Claude Code sends one after its results.
  const contexts: string[] = [];
  // Images the tools read: one user message after all the results (a tool message takes
  // text only, and nothing may come between an assistant's tool calls and their results).
  const images: string[] = [];
  for (let next = 0; next < calls.length; ) {
    const first = calls[next];
    if (first === undefined) break;
    if (stopReason !== null || storm !== null || signal.aborted) {
      // Every call gets a result so the log stays a valid conversation.
      const content = signal.aborted
        ? "Not run: the user interrupted the turn."
        : `Not run: ${stopReason ?? storm}`;
      core.log.append({ role: "tool", content, tool_call_id: first.id });
      next += 1;
      continue;
    }
    const prepared = prepareGroup(core, calls, next);
    storm = prepared.storm;
    const group = prepared.group;
    const outcomes =
      group.length === 1 && group[0] !== undefined
        ? [yield* dispatchToolCall(core.dispatch, group[0], signal)]
        : yield* runConcurrently(core.dispatch, group, signal);
    // Results go to the log in call order, whatever order the calls finished in: the log
    // is byte-for-byte what running them one after the other would have written.
    group.forEach((call, i) => {
      const outcome = outcomes[i];
      if (outcome === undefined) return;
      let content = outcome.content;
      if (outcome.image !== undefined) {
        if (modelTakesImages(core.model)) images.push(outcome.image);
        else content = `${call.name}: the file is an image, and ${noVisionMessage(core.model)}`;
      }
      core.appendToolResult(call.id, content);
      if (outcome.context !== null) contexts.push(outcome.context);
      // The first call (in call order) that stopped the turn names why.
      stopReason ??= outcome.stopReason;
      batch.push({
        tool_name: call.name,
        tool_input: outcome.input,
        tool_use_id: call.id,
        tool_response: outcome.content,
      });
    });
    next += group.length;
  }
  if (images.length > 0) {
    core.log.append({
      role: "user",
      content: `[${images.length === 1 ? "The image" : `The ${images.length} images`} read by the tool calls above.]`,
      images,
    });
  }
  core.appendHookMessage(contexts);
  if (stopReason === null && storm === null && !signal.aborted) {
    const after = yield* firePostToolBatch(core.hooks, core.info, batch, signal);
    if (after.additionalContext !== null) {
      core.log.append({
        role: "user",
        content: hookContextBlock("PostToolBatch", after.additionalContext),
      });
    }
    stopReason = after.stopReason;
  }
  return { stopReason, storm };
}

/**
 * The calls that run next, from `calls[next]`: consecutive `task` calls run at once
 * (parallel-tasks.ts), every other call alone. Each passes the storm breaker first; one it
 * aborts on ends the group, and its message comes back as `storm`.
 */
function prepareGroup(
  core: AgentCore,
  calls: RepairedCalls,
  next: number,
): { group: PreparedCall[]; storm: string | null } {
  const group: PreparedCall[] = [];
  let storm: string | null = null;
  for (const call of calls.slice(next, next + concurrentTaskRun(core.dispatch, calls, next))) {
    const prepared: PreparedCall = { id: call.id, name: call.name, input: call.input };
    if (call.error !== undefined) prepared.error = call.error;
    else {
      const verdict = core.storm.check(
        { name: call.name, arguments: call.input },
        { mutating: core.isMutating(call.name) },
      );
      if (verdict === "stub") prepared.error = stormStubResult(call.name);
      if (verdict === "abort") {
        storm = stormAbortMessage(call.name);
        prepared.error = storm;
      }
    }
    group.push(prepared);
    // The storm breaker stops the batch here: the calls after this one do not run.
    if (storm !== null) break;
  }
  return { group, storm };
}

/**
 * Stop (SubagentStop) hooks on an answer: "continue" when one blocked and the model goes on
 * (its feedback in the log), else how the turn ends.
 */
async function* stopHooks(
  core: AgentCore,
  lastText: string,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, "continue" | "hook_stop" | "end"> {
  const stop = yield* fireStop(core, lastText, signal);
  if (!stop.continue) {
    yield { type: "notice", level: "warn", text: stop.stopReason ?? "Stopped by a Stop hook." };
    return "hook_stop";
  }
  if (!isVeto(stop) || signal.aborted) return "end";
  if (core.scratch.stopBlocks >= MAX_STOP_BLOCKS_IN_A_ROW) {
    yield {
      type: "notice",
      level: "warn",
      text: `Stop hooks blocked ${MAX_STOP_BLOCKS_IN_A_ROW} times in a row; stopping anyway.`,
    };
    return "end";
  }
  core.finish?.reset();
  core.scratch.stopBlocks += 1;
  const reason = vetoReason(stop);
  yield {
    type: "notice",
    level: "info",
    text: `${vetoingHooks(stop)} asked to continue: ${reason}`,
  };
  const event = core.isSubagent ? "SubagentStop" : "Stop";
  // The feedback, then (Claude Code hooks' JSON blocks) Claude's blocking-error line.
  core.log.append({
    role: "user",
    content: [stopFeedbackText(stop), ...stopBlockingErrors(stop, event)]
      .map((text) => hookContextBlock(event, text))
      .join("\n\n"),
  });
  return "continue";
}

/** Compacts in the middle of a turn, then asks the model to carry on from the summary. */
async function* compactInTurn(
  core: AgentCore,
  signal: AbortSignal,
  overflow: boolean,
): AsyncGenerator<AgentEvent, boolean> {
  const done = yield* compactLog(core, { signal, trigger: "auto", overflow });
  if (done) {
    core.appendUserTurn(CONTINUE_AFTER_COMPACTION, null);
  }
  return done;
}

/** How full the context was at the last request (none before a request reported its tokens). */
function contextUsage(core: AgentCore) {
  const tokens = core.lastPromptTokens;
  const limit = contextWindow(core.model);
  if (!(tokens > 0) || !(limit > 0)) return {};
  return { context_usage: tokens / limit, context_limit: limit, input_tokens: tokens };
}

/** Stop for the session's turn; SubagentStop (with its id and type) for a sub-agent's. */
async function* fireStop(
  core: AgentCore,
  lastText: string,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, HookDecision> {
  const fields = {
    stop_hook_active: core.scratch.stopBlocks > 0,
    last_assistant_message: lastText,
  };
  const agent = core.info.agent;
  if (agent === undefined) {
    return yield* fireHook(
      core.hooks,
      core.info,
      "Stop",
      { ...fields, ...contextUsage(core) },
      signal,
    );
  }
  return yield* fireHook(
    core.hooks,
    core.info,
    "SubagentStop",
    { agent_id: agent.id, agent_type: agent.type, ...fields },
    signal,
  );
}

/** What the log keeps of an answer the user interrupted: the text shown so far and a marker,
 *  as an assistant message, so the next prompt ("continue", "no, do X") reads against what
 *  the model had said. Nothing shown: nothing kept (the next prompt joins the unanswered one). */
export const INTERRUPTED_MARK = "[interrupted by the user]";
function keepInterruptedAnswer(core: AgentCore, shown: string): void {
  const text = shown.trimEnd();
  if (text === "") return;
  core.log.append({ role: "assistant", content: `${text}\n\n${INTERRUPTED_MARK}` });
}
