/**
 * Running one hook for one firing: its timeout, its payload shaped for its dialect, its
 * handler (whose failure is a result, never a throw), the verdict and the record of the run.
 */
import { redactUrls } from "../../base/index.js";
import type { AggregateItem } from "../aggregate.js";
import { type DecideContext, decideRun } from "../decide.js";
import { shapePayload } from "../dialects/index.js";
import { type AnyEventPayload, MAX_HOOK_TIMEOUT_MS } from "../events.js";
import { FiringMemo } from "../firing-memo.js";
import type { HandlerResult, HandlerRunRequest } from "../handlers/types.js";
import type { PreparedHook } from "../plan.js";
import type { FireOptions, HookRunRecord } from "../types.js";
import { type EngineContext, reportRun } from "./context.js";

/** How one hook runs within its firing. */
export interface HookRunOptions {
  async: boolean;
  /** Shared by the hooks of one firing (firing-memo.ts). */
  memo?: FiringMemo;
  /** Epoch ms by which the hook must be done (SessionEnd's budget). */
  deadline?: number;
  onStart?: FireOptions["onStart"];
  onEnd?: FireOptions["onEnd"];
}

/** Runs one hook, records it in the stats and (unless in the background) reports it. */
export async function runHook(
  ctx: EngineContext,
  h: PreparedHook,
  payload: AnyEventPayload,
  signal: AbortSignal,
  run: HookRunOptions,
): Promise<AggregateItem> {
  const timeoutMs = timeoutOf(h, payload, run.deadline);
  const startedAt = Date.now();
  const result =
    timeoutMs <= 0
      ? failedResult("timeout", null, 0)
      : await callHandler(ctx, h, payload, signal, run, timeoutMs, startedAt);
  const verdict = decideRun(decideContextOf(ctx, h, payload, timeoutMs), result);
  const record: HookRunRecord = {
    hookId: h.def.id,
    event: payload.hook_event_name,
    source: h.def.source.path,
    dialect: h.def.source.dialect,
    scope: h.def.source.scope,
    handlerType: h.def.handler.type,
    command: shownLabel(h),
    outcome: verdict.outcome,
    exitCode: result.exitCode,
    durationMs: result.durationMs,
    stdout: result.stdout,
    stderr: result.stderr,
    truncated: result.truncated,
    message: verdict.message === null ? null : redactUrls(verdict.message),
    startedAt,
    async: run.async,
  };
  ctx.stats.record(h.def, record);
  // Background runs are reported once their result can be taken (see AsyncRunner).
  if (!run.async) reportRun(ctx, record);
  return { verdict, record, dialect: h.dialect, order: h.def.order };
}

/** What the verdict on one run of `h` depends on besides its result. */
function decideContextOf(
  ctx: EngineContext,
  h: PreparedHook,
  payload: AnyEventPayload,
  timeoutMs: number,
): DecideContext {
  const event = payload.hook_event_name;
  const decide: DecideContext = {
    ...fixedDecideContext(h),
    event,
    mcpTool: "tool_name" in payload && String(payload.tool_name).startsWith("mcp__"),
    timeoutMs,
    onError: h.def.handler.onError ?? ctx.snapshot.loaded.settings.hooksOnError,
  };
  if (h.dialect.feedbackToModelOn && !h.dialect.feedbackToModelOn.has(event)) {
    decide.feedbackTo = "user";
  }
  return decide;
}

/** The part of a hook's DecideContext its definition fixes, made at its first run. */
const fixedDecideContexts = new WeakMap<PreparedHook, FixedDecideContext>();
type FixedDecideContext = Pick<
  DecideContext,
  "exitTable" | "parsesJson" | "label" | "timeoutNote" | "onTimeout" | "onFailure"
>;

function fixedDecideContext(h: PreparedHook): FixedDecideContext {
  let fixed = fixedDecideContexts.get(h);
  if (fixed !== undefined) return fixed;
  const handler = h.def.handler;
  fixed = { exitTable: h.dialect.exitTable, parsesJson: h.dialect.parsesJson, label: h.label };
  if (h.dialect.timeoutUnit === "ms" && handler.timeout !== undefined) {
    fixed.timeoutNote = `${h.dialect.label} timeouts are milliseconds`;
  }
  if (handler.onTimeout) fixed.onTimeout = handler.onTimeout;
  // Claude Code ignores onFailure on async hooks: their result never gates anything.
  if (handler.onFailure && !handler.async && !handler.asyncRewake) {
    fixed.onFailure = handler.onFailure;
  }
  fixedDecideContexts.set(h, fixed);
  return fixed;
}

/** Each hook's label as run records show it (URLs redacted), made at its first run: the label
 *  of a prepared hook never changes, and a firing records every hook it runs. */
const shownLabels = new WeakMap<PreparedHook, string>();

function shownLabel(h: PreparedHook): string {
  let shown = shownLabels.get(h);
  if (shown === undefined) {
    shown = redactUrls(h.label);
    shownLabels.set(h, shown);
  }
  return shown;
}

/** The hook's timeout in ms: its own or its dialect's default, capped, and within `deadline`. */
function timeoutOf(h: PreparedHook, payload: AnyEventPayload, deadline?: number): number {
  const event = payload.hook_event_name;
  const written = h.def.handler.timeout ?? h.dialect.defaultTimeoutSec(event, h.def.handler.type);
  const timeoutMs = Math.min(written * 1000, MAX_HOOK_TIMEOUT_MS);
  return deadline === undefined ? timeoutMs : Math.min(timeoutMs, deadline - Date.now());
}

/** A run that produced no output: it timed out before starting, or its handler threw. */
function failedResult(
  outcome: "timeout" | "error",
  message: string | null,
  durationMs: number,
): HandlerResult {
  return {
    kind: "decided",
    outcome,
    message,
    stdout: "",
    stderr: "",
    exitCode: null,
    truncated: false,
    durationMs,
  };
}

/** Shapes the payload for the hook's dialect and runs its handler between onStart and onEnd. */
async function callHandler(
  ctx: EngineContext,
  h: PreparedHook,
  payload: AnyEventPayload,
  signal: AbortSignal,
  run: HookRunOptions,
  timeoutMs: number,
  startedAt: number,
): Promise<HandlerResult> {
  const req = handlerRequest(ctx, h, payload, signal, run.memo ?? new FiringMemo(), timeoutMs);
  // Made only for a caller that listens (the TUI's running-hooks line); `keel run` does not.
  const started =
    run.onStart || run.onEnd
      ? {
          hookId: h.def.id,
          event: payload.hook_event_name,
          command: h.label,
          source: h.def.source.path,
          startedAt,
        }
      : undefined;
  try {
    if (started) run.onStart?.(started);
  } catch {
    // onStart must not throw; if it does, the hook still runs.
  }
  let result: HandlerResult;
  try {
    result = await ctx.handlers[h.def.handler.type](req);
  } catch (err) {
    const message = `hook handler failed: ${err instanceof Error ? err.message : String(err)}`;
    result = failedResult("error", message, Date.now() - startedAt);
  }
  try {
    if (started) run.onEnd?.(started);
  } catch {
    // onEnd must not throw; the run's result stands.
  }
  return result;
}

/** What the handler is given: the payload as the hook's dialect shapes it, and the limits. */
function handlerRequest(
  ctx: EngineContext,
  h: PreparedHook,
  payload: AnyEventPayload,
  signal: AbortSignal,
  memo: FiringMemo,
  timeoutMs: number,
): HandlerRunRequest {
  const { opts, tools } = ctx;
  const { projectDir } = ctx.paths;
  const shell = h.dialect.defaultShell?.(ctx.baseEnv);
  const shaped = memo.shape(h.dialect, payload, () =>
    shapePayload(h.dialect, payload, {
      projectDir,
      ...(tools ? { tools } : {}),
      ...(opts.session ? { session: opts.session } : {}),
      ...ctx.dialectSessions.shaped(h.dialect, payload),
    }),
  );
  return {
    hook: h.def,
    payload,
    stdin: shaped.stdin,
    env: ctx.environments.get(shaped.env, h.def.source.env),
    projectDir,
    timeoutMs,
    signal,
    ...(shell !== undefined ? { shell } : {}),
    maxOutputBytes: ctx.maxOutputBytes,
    allowPrivateNetworks: ctx.snapshot.loaded.settings.allowPrivateNetworks,
    ...(opts.promptRunner ? { promptRunner: opts.promptRunner } : {}),
    ...(opts.agentRunner ? { agentRunner: opts.agentRunner } : {}),
    ...(opts.mcpToolRunner ? { mcpToolRunner: opts.mcpToolRunner } : {}),
  };
}
