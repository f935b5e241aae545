/**
 * One firing: plan the event's hooks (matcher, `if`, trust, `once`), start the background
 * ones, run the rest as runs (runs.ts) and aggregate their verdicts into one decision.
 */
import { isRecord } from "../../base/index.js";
import { type AggregateItem, type AggregateToolContext, aggregate } from "../aggregate.js";
import { chainedPayload } from "../chain.js";
import { showPath } from "../config/paths.js";
import {
  type AnyEventPayload,
  type EventPayload,
  type HookEventName,
  SESSION_END_BUDGET_MS,
} from "../events.js";
import { FiringMemo } from "../firing-memo.js";
import { type PreparedHook, planFiring } from "../plan.js";
import { changedExecutedFiles, takeSnapshot } from "../snapshot.js";
import type { FireOptions, HookDecision } from "../types.js";
import { type EngineContext, reportRun } from "./context.js";
import { runHook } from "./run-hook.js";
import { mapBounded, runsInBackground, runsOf } from "./runs.js";

const NEVER = new AbortController().signal;

/** The hooks a firing runs, and the payload each is given. */
interface PlannedFiring {
  hooks: PreparedHook[];
  payloadOf(h: PreparedHook): AnyEventPayload;
}

/** Fires one event through the hooks in force; may throw (the engine's `fire` catches). */
export async function fireEvent(ctx: EngineContext, options: FireOptions): Promise<HookDecision> {
  // EventPayload<HookEventName> and the distributed union describe the same objects; TS
  // cannot see that through the generic, so this one widening is spelled out.
  const payload = options.payload as AnyEventPayload;
  const event: HookEventName = options.event;
  ctx.dialectSessions.observe(payload);
  await recheckTrust(ctx);
  const planned = planHooks(ctx, event, payload, options.ranAs as AnyEventPayload | undefined);
  if (planned.hooks.length === 0) return aggregate(event, []);
  startInBackground(ctx, planned.hooks.filter(runsInBackground), planned.payloadOf);
  const foreground = { ...planned, hooks: planned.hooks.filter((h) => !runsInBackground(h)) };
  const items = await runInForeground(ctx, foreground, options);
  return aggregate(event, items, toolContextOf(payload, ctx.paths.projectDir));
}

/** A trusted hook's script edited since the snapshot is re-hashed: now untrusted, it won't run;
 *  the notice waits in `trustLost` for the firing to report it. */
async function recheckTrust(ctx: EngineContext): Promise<void> {
  if (!ctx.snapshot.listing.projectTrust.trusted) return;
  const changed = await changedExecutedFiles(ctx.snapshot);
  if (changed.length === 0) return;
  ctx.snapshot = await takeSnapshot(ctx.paths);
  if (ctx.snapshot.listing.projectTrust.trusted) return;
  const names = changed.map((f) => showPath(f, ctx.paths)).join(", ");
  ctx.trustLost.push(
    `the project's hooks stopped running: ${names} changed since you trusted them. ` +
      "Review the change; `keel hooks trust` (in the TUI: /hooks trust) runs them again.",
  );
}

/** The event's hooks that fire, without `once` hooks that already ran (now marked as run). */
function planHooks(
  ctx: EngineContext,
  event: HookEventName,
  payload: AnyEventPayload,
  ranAsGiven: AnyEventPayload | undefined,
): PlannedFiring {
  const { snapshot, tools } = ctx;
  const { projectDir } = ctx.paths;
  // A failed tool that ran (a shell command's non-zero exit) is PostToolUse to some dialects.
  const ranAs = event === "PostToolUseFailure" ? ranAsGiven : undefined;
  const seesPost = (h: PreparedHook) => {
    const rule = h.dialect.ranToolFailureIsPostToolUse;
    if (ranAs === undefined || rule === undefined) return false;
    return typeof rule === "function" ? rule(ranAs as EventPayload<"PostToolUse">) : rule;
  };
  const candidates = (snapshot.byEvent.get(event) ?? []).filter((h) => !seesPost(h));
  const asPost = ranAs
    ? planFiring(
        (snapshot.byEvent.get("PostToolUse") ?? []).filter(seesPost),
        ranAs,
        projectDir,
        tools,
      )
    : [];
  const hooks = [...planFiring(candidates, payload, projectDir, tools), ...asPost].filter(
    (h) => h.def.handler.once !== true || !ctx.ranOnce.has(h.def.id),
  );
  for (const h of hooks) if (h.def.handler.once === true) ctx.ranOnce.add(h.def.id);
  return {
    hooks,
    payloadOf: (h) => (ranAs !== undefined && asPost.includes(h) ? ranAs : payload),
  };
}

/** Starts `async`/`asyncRewake` hooks; their results are taken later (AsyncRunner). */
function startInBackground(
  ctx: EngineContext,
  hooks: readonly PreparedHook[],
  payloadOf: PlannedFiring["payloadOf"],
): void {
  for (const h of hooks) {
    ctx.background.start(
      async (signal) => {
        const item = await runHook(ctx, h, payloadOf(h), signal, { async: true });
        return {
          run: item.record,
          additionalContext:
            item.verdict.additionalContext ??
            // asyncRewake: an exit 2 in the background wakes the model with its stderr.
            (h.def.handler.asyncRewake === true && item.record.exitCode === 2
              ? item.verdict.message
              : null),
          systemMessage: item.verdict.systemMessage,
        };
      },
      (result) => reportRun(ctx, result.run),
    );
  }
}

/** Runs the hooks the firing waits for: runs alongside each other, each run's hooks in order. */
async function runInForeground(
  ctx: EngineContext,
  planned: PlannedFiring,
  options: FireOptions,
): Promise<AggregateItem[]> {
  const deadline = options.event === "SessionEnd" ? Date.now() + SESSION_END_BUDGET_MS : undefined;
  const signal = options.signal ?? NEVER;
  const memo = new FiringMemo();
  const runOne = (h: PreparedHook, chained?: AnyEventPayload) =>
    runHook(ctx, h, chained ?? planned.payloadOf(h), signal, {
      async: false,
      memo,
      ...(deadline !== undefined ? { deadline } : {}),
      ...(options.onStart ? { onStart: options.onStart } : {}),
      ...(options.onEnd ? { onEnd: options.onEnd } : {}),
    });
  const runs = await mapBounded(runsOf(planned.hooks), ctx.concurrency, async (run) => {
    const done: AggregateItem[] = [];
    let chained: AnyEventPayload | undefined;
    for (const h of run.hooks) {
      const item = await runOne(h, chained);
      done.push(item);
      if (run.chains) {
        chained = chainedPayload(chained ?? planned.payloadOf(h), item, ctx.paths.projectDir);
      }
      // A dialect's in-order run ends at its first block or deny: later hooks never start.
      const d = item.verdict.decision;
      if (run.stopsAtBlock && (d === "block" || d === "deny")) break;
    }
    return done;
  });
  return runs.flat();
}

/** The tool call a tool event is about, for aggregating updated inputs. */
function toolContextOf(
  payload: AnyEventPayload,
  projectDir: string,
): AggregateToolContext | undefined {
  const p: Record<string, unknown> = { ...payload };
  return typeof p.tool_name === "string" && isRecord(p.tool_input)
    ? { keelTool: p.tool_name, input: p.tool_input, projectDir }
    : undefined;
}
