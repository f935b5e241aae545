/**
 * What the parts of one hooks engine share: the fixed set-up made once (environment, handlers,
 * limits) and the session's state (the snapshot in force, `once` hooks that ran, trust notices
 * not yet reported, dialect session states).
 */
import { buildChildEnv } from "../../base/index.js";
import { AsyncRunner } from "../async-runner.js";
import { type HookPaths, resolveHookPaths } from "../config/load.js";
import { DIALECT_LIST } from "../dialects/index.js";
import { DialectSessions } from "../dialects/sessions.js";
import { createHandlers } from "../handlers/index.js";
import type { Handler } from "../handlers/types.js";
import { HookEnvironments } from "../hook-env.js";
import { DEFAULT_MAX_OUTPUT_BYTES, type SpawnFn } from "../process.js";
import { type HookSnapshot, takeSnapshot } from "../snapshot.js";
import { StatsCollector } from "../stats.js";
import { type HookToolCatalog, toolCatalog } from "../tool-descriptor.js";
import type { HandlerType, HookEngineOptions, HookRunRecord } from "../types.js";

/** Options beyond the contract: seams for tests and benchmarks, and limits. */
export interface EngineExtras {
  /** Replaces node's spawn for command hooks (count or fake processes). */
  spawn?: SpawnFn;
  /** Replaces handlers by type (tests). */
  handlers?: Partial<Record<HandlerType, Handler>>;
  /** Cap per output stream, bytes (default 1 MiB). */
  maxOutputBytes?: number;
  /** Maximum async hooks running at once (default 4). */
  asyncConcurrency?: number;
}

export interface EngineContext {
  readonly opts: HookEngineOptions & EngineExtras;
  readonly paths: HookPaths;
  /** The environment every hook starts from (hook-env.ts lays each hook's own over it). */
  readonly baseEnv: Readonly<Record<string, string>>;
  readonly environments: HookEnvironments;
  readonly handlers: Record<HandlerType, Handler>;
  /** Foreground runs going at once. */
  readonly concurrency: number;
  readonly tools: HookToolCatalog | undefined;
  readonly maxOutputBytes: number;
  readonly stats: StatsCollector;
  readonly background: AsyncRunner;
  /** What dialects carry from one firing to a later one (dialects/sessions.ts). */
  readonly dialectSessions: DialectSessions;
  /** Hooks with `once: true` that already ran in this session. */
  readonly ranOnce: Set<string>;
  /** Notices of project hooks that stopped running since the last firing reported. */
  readonly trustLost: string[];
  /** The hooks in force; replaced by reload, trust and a trusted script's edit. */
  snapshot: HookSnapshot;
}

/** Sets an engine up for one project: reads every source now (the snapshot). */
export async function createEngineContext(
  opts: HookEngineOptions & EngineExtras,
): Promise<EngineContext> {
  const paths = resolveHookPaths(opts);
  const baseEnv: Record<string, string> = {};
  // A caller's env is its decision (the agent passes the builder's, with the user's choice about
  // the key); without one, Keel's own environment goes through the builder: no secrets.
  const given = opts.env ?? buildChildEnv(process.env);
  for (const [k, v] of Object.entries(given)) if (v !== undefined) baseEnv[k] = v;
  return {
    opts,
    paths,
    baseEnv,
    environments: new HookEnvironments(baseEnv),
    handlers: {
      ...createHandlers(opts.spawn ? { spawn: opts.spawn } : {}),
      ...opts.handlers,
    },
    concurrency: opts.concurrency ?? 8,
    tools: opts.tools ? toolCatalog(opts.tools) : undefined,
    maxOutputBytes: opts.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    stats: new StatsCollector(),
    background: new AsyncRunner(opts.asyncConcurrency ?? 4),
    dialectSessions: new DialectSessions(DIALECT_LIST),
    ranOnce: new Set(),
    trustLost: [],
    snapshot: await takeSnapshot(paths, opts.env),
  };
}

/** Hands a finished run to the caller's `onRun`, which must not break the firing. */
export function reportRun(ctx: EngineContext, run: HookRunRecord): void {
  try {
    ctx.opts.onRun?.(run);
  } catch {
    // onRun must not throw; if it does, the firing still completes.
  }
}
