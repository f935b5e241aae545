/**
 * The hooks engine: a snapshot of every hook for one project, fired as plan (event, matcher,
 * `if`, trust, dedup) → run (parallel and bounded; in order for dialects whose agents do that)
 * → aggregate. fire() never throws.
 */
import { buildChildEnv, isRecord, redactUrls } from "../base/index.js";
import { type AggregateItem, type AggregateToolContext, aggregate } from "./aggregate.js";
import { AsyncRunner } from "./async-runner.js";
import { chainedPayload } from "./chain.js";
import { isInside, resolveHookPaths } from "./config/load.js";
import { showPath } from "./config/paths.js";
import { decideRun } from "./decide.js";
import { DIALECT_LIST, shapePayload } from "./dialects/index.js";
import { DialectSessions } from "./dialects/sessions.js";
import {
  type AnyEventPayload,
  type HookEventName,
  MAX_HOOK_TIMEOUT_MS,
  SESSION_END_BUDGET_MS,
} from "./events.js";
import { FiringMemo } from "./firing-memo.js";
import { createHandlers } from "./handlers/index.js";
import type { Handler, HandlerResult } from "./handlers/types.js";
import { HookEnvironments } from "./hook-env.js";
import { type PreparedHook, planFiring } from "./plan.js";
import { DEFAULT_MAX_OUTPUT_BYTES, killLeftoverGroups, type SpawnFn } from "./process.js";
import {
  applyTrust,
  changedExecutedFiles,
  type HookSnapshot,
  snapshotChanged,
  takeSnapshot,
} from "./snapshot.js";
import { StatsCollector } from "./stats.js";
import { toolCatalog } from "./tool-descriptor.js";
import { setTrust } from "./trust.js";
import type {
  FireOptions,
  HandlerType,
  HookDecision,
  HookEngine,
  HookEngineOptions,
  HookProblem,
  HookRunRecord,
  HookSource,
} from "./types.js";

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

const NEVER = new AbortController().signal;

/** Claude Code's ConfigChange `source` for a file: user, project or local settings. */
function configSourceOf(
  path: string,
  sources: readonly HookSource[],
  paths: { projectDir: string },
): "user_settings" | "project_settings" | "local_settings" {
  const inProject = isInside(paths.projectDir, path);
  const scope =
    sources.find((s) => s.path === path)?.scope ??
    (!inProject ? "user" : path.includes(".local.") ? "local" : "project");
  return scope === "user"
    ? "user_settings"
    : scope === "local"
      ? "local_settings"
      : "project_settings";
}

function runsInBackground(h: PreparedHook): boolean {
  return (
    (h.def.handler.async === true || h.def.handler.asyncRewake === true) &&
    (h.def.handler.type === "command" || h.def.handler.type === "http")
  );
}

/** Hooks that run one after another; `stopsAtBlock`: the first block or deny ends the run;
 *  `chains`: each hook sees the input as the hooks before it changed it (chain.ts). */
interface Run {
  hooks: PreparedHook[];
  stopsAtBlock: boolean;
  chains: boolean;
}

/**
 * The firing's hooks as runs: a dialect whose agent runs hooks one after another
 * (`inOrderChain`) gets one run of all its hooks in configuration order, ended by the first
 * block unless the dialect runs them all (`inOrderRunsAll`); a dialect with a sequential group
 * among the firing's hooks (Gemini, Qwen) one run of all its hooks, all of which run, each
 * seeing the input as the ones before it rewrote it;
 * every other hook is a run of its own. Runs go alongside each other.
 */
function runsOf(hooks: readonly PreparedHook[]): Run[] {
  const runs: Run[] = [];
  const chains = new Map<string, Run>();
  // One sequential group among a dialect's hooks of this firing makes all of them one run
  // (Gemini CLI and Qwen Code: `sequential = entries.some(e => e.sequential)`).
  const sequential = new Set(
    hooks.filter((h) => h.def.sequentialGroup !== undefined).map((h) => h.dialect.name),
  );
  for (const h of hooks) {
    const dialectChain = h.dialect.inOrderChain;
    const key =
      dialectChain !== undefined
        ? `dialect:${dialectChain}`
        : sequential.has(h.dialect.name)
          ? `sequential:${h.dialect.name}`
          : undefined;
    if (key === undefined) {
      runs.push({ hooks: [h], stopsAtBlock: false, chains: false });
      continue;
    }
    const chain = chains.get(key);
    if (chain) chain.hooks.push(h);
    else {
      const inOrder = dialectChain !== undefined;
      const fresh = {
        hooks: [h],
        stopsAtBlock: inOrder && h.dialect.inOrderRunsAll !== true,
        chains: !inOrder || h.dialect.inOrderPassesInput === true,
      };
      chains.set(key, fresh);
      runs.push(fresh);
    }
  }
  return runs;
}

async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
  return out;
}

/** Creates an engine for one project: reads every source now (the snapshot). */
export async function createHookEngine(
  opts: HookEngineOptions & EngineExtras,
): Promise<HookEngine> {
  const paths = resolveHookPaths(opts);
  const { projectDir, keelHome } = paths;
  const baseEnv: Record<string, string> = {};
  // A caller's env is its decision (the agent passes the builder's, with the user's choice about
  // the key); without one, Keel's own environment goes through the builder: no secrets.
  const given = opts.env ?? buildChildEnv(process.env);
  for (const [k, v] of Object.entries(given)) if (v !== undefined) baseEnv[k] = v;
  const environments = new HookEnvironments(baseEnv);
  const handlers: Record<HandlerType, Handler> = {
    ...createHandlers(opts.spawn ? { spawn: opts.spawn } : {}),
    ...opts.handlers,
  };
  const concurrency = opts.concurrency ?? 8;
  const tools = opts.tools ? toolCatalog(opts.tools) : undefined;
  /** Hooks with `once: true` that already ran in this session. */
  const ranOnce = new Set<string>();
  /** What dialects carry from one firing to a later one (dialects/sessions.ts). */
  const dialectSessions = new DialectSessions(DIALECT_LIST);
  const maxOutputBytes = opts.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const stats = new StatsCollector();
  const background = new AsyncRunner(opts.asyncConcurrency ?? 4);
  let snapshot: HookSnapshot = await takeSnapshot(paths, opts.env);

  const report = (run: HookRunRecord): void => {
    try {
      opts.onRun?.(run);
    } catch {
      // onRun must not throw; if it does, the firing still completes.
    }
  };

  const runOne = async (
    h: PreparedHook,
    payload: AnyEventPayload,
    signal: AbortSignal,
    run: {
      async: boolean;
      /** Shared by the hooks of one firing (firing-memo.ts). */
      memo?: FiringMemo;
      deadline?: number;
      onStart?: FireOptions["onStart"];
      onEnd?: FireOptions["onEnd"];
    },
  ): Promise<AggregateItem> => {
    const event = payload.hook_event_name;
    const type = h.def.handler.type;
    let timeoutMs = Math.min(
      (h.def.handler.timeout ?? h.dialect.defaultTimeoutSec(event, type)) * 1000,
      MAX_HOOK_TIMEOUT_MS,
    );
    if (run.deadline !== undefined) timeoutMs = Math.min(timeoutMs, run.deadline - Date.now());
    const startedAt = Date.now();
    let result: HandlerResult;
    if (timeoutMs <= 0) {
      result = {
        kind: "decided",
        outcome: "timeout",
        message: null,
        stdout: "",
        stderr: "",
        exitCode: null,
        truncated: false,
        durationMs: 0,
      };
    } else {
      const shell = h.dialect.defaultShell?.(baseEnv);
      const memo = run.memo ?? new FiringMemo();
      const shaped = memo.shape(h.dialect, payload, () =>
        shapePayload(h.dialect, payload, {
          projectDir,
          ...(tools ? { tools } : {}),
          ...(opts.session ? { session: opts.session } : {}),
          ...dialectSessions.shaped(h.dialect, payload),
        }),
      );
      const req = {
        hook: h.def,
        payload,
        stdin: shaped.stdin,
        env: environments.get(shaped.env, h.def.source.env),
        projectDir,
        timeoutMs,
        signal,
        ...(shell !== undefined ? { shell } : {}),
        maxOutputBytes,
        allowPrivateNetworks: snapshot.loaded.settings.allowPrivateNetworks,
        ...(opts.promptRunner ? { promptRunner: opts.promptRunner } : {}),
        ...(opts.agentRunner ? { agentRunner: opts.agentRunner } : {}),
        ...(opts.mcpToolRunner ? { mcpToolRunner: opts.mcpToolRunner } : {}),
      };
      const started = {
        hookId: h.def.id,
        event,
        command: h.label,
        source: h.def.source.path,
        startedAt,
      };
      try {
        run.onStart?.(started);
      } catch {
        // onStart must not throw; if it does, the hook still runs.
      }
      try {
        result = await handlers[type](req);
      } catch (err) {
        const message = `hook handler failed: ${err instanceof Error ? err.message : String(err)}`;
        result = {
          kind: "decided",
          outcome: "error",
          message,
          stdout: "",
          stderr: "",
          exitCode: null,
          truncated: false,
          durationMs: Date.now() - startedAt,
        };
      }
      try {
        run.onEnd?.(started);
      } catch {
        // onEnd must not throw; the run's result stands.
      }
    }
    const verdict = decideRun(
      {
        event,
        exitTable: h.dialect.exitTable,
        parsesJson: h.dialect.parsesJson,
        label: h.label,
        mcpTool: "tool_name" in payload && String(payload.tool_name).startsWith("mcp__"),
        timeoutMs,
        ...(h.dialect.timeoutUnit === "ms" && h.def.handler.timeout !== undefined
          ? { timeoutNote: `${h.dialect.label} timeouts are milliseconds` }
          : {}),
        ...(h.def.handler.onTimeout ? { onTimeout: h.def.handler.onTimeout } : {}),
        onError: h.def.handler.onError ?? snapshot.loaded.settings.hooksOnError,
        ...(h.dialect.feedbackToModelOn && !h.dialect.feedbackToModelOn.has(event)
          ? { feedbackTo: "user" as const }
          : {}),
      },
      result,
    );
    const record: HookRunRecord = {
      hookId: h.def.id,
      event,
      source: h.def.source.path,
      dialect: h.def.source.dialect,
      scope: h.def.source.scope,
      handlerType: type,
      command: redactUrls(h.label),
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
    stats.record(h.def, record);
    // Background runs are reported once their result can be taken (see AsyncRunner).
    if (!run.async) report(record);
    return { verdict, record, dialect: h.dialect, order: h.def.order };
  };

  /** Notices of project hooks that stopped running since the last firing reported. */
  const trustLost: string[] = [];
  const fireInner = async (options: FireOptions): Promise<HookDecision> => {
    // EventPayload<HookEventName> and the distributed union describe the same objects; TS
    // cannot see that through the generic, so this one widening is spelled out.
    const payload = options.payload as AnyEventPayload;
    const event: HookEventName = options.event;
    dialectSessions.observe(payload);
    // A trusted hook's script edited since the snapshot is re-hashed: now untrusted, it won't run.
    if (snapshot.listing.projectTrust.trusted) {
      const changed = await changedExecutedFiles(snapshot);
      if (changed.length > 0) {
        snapshot = await takeSnapshot(paths);
        if (!snapshot.listing.projectTrust.trusted) {
          const names = changed.map((f) => showPath(f, paths)).join(", ");
          trustLost.push(
            `the project's hooks stopped running: ${names} changed since you trusted them. ` +
              "Review the change; `keel hooks trust` (in the TUI: /hooks trust) runs them again.",
          );
        }
      }
    }
    // A failed tool that ran (a shell command's non-zero exit) is PostToolUse to some dialects.
    const ranAs = event === "PostToolUseFailure" ? (options.ranAs as AnyEventPayload) : undefined;
    const seesPost = (h: PreparedHook) =>
      ranAs !== undefined && h.dialect.ranToolFailureIsPostToolUse;
    const candidates = (snapshot.byEvent.get(event) ?? []).filter((h) => !seesPost(h));
    const asPost = ranAs
      ? planFiring(
          (snapshot.byEvent.get("PostToolUse") ?? []).filter(seesPost),
          ranAs,
          projectDir,
          tools,
        )
      : [];
    const payloadOf = (h: PreparedHook): AnyEventPayload =>
      ranAs !== undefined && asPost.includes(h) ? ranAs : payload;
    const planned = [...planFiring(candidates, payload, projectDir, tools), ...asPost].filter(
      (h) => h.def.handler.once !== true || !ranOnce.has(h.def.id),
    );
    for (const h of planned) if (h.def.handler.once === true) ranOnce.add(h.def.id);
    if (planned.length === 0) return aggregate(event, []);

    for (const h of planned.filter(runsInBackground)) {
      background.start(
        async (signal) => {
          const item = await runOne(h, payloadOf(h), signal, { async: true });
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
        (result) => report(result.run),
      );
    }
    const foreground = planned.filter((h) => !runsInBackground(h));
    const deadline = event === "SessionEnd" ? Date.now() + SESSION_END_BUDGET_MS : undefined;
    const signal = options.signal ?? NEVER;
    const memo = new FiringMemo();
    const runHook = (h: PreparedHook, chained?: AnyEventPayload) =>
      runOne(h, chained ?? payloadOf(h), signal, {
        async: false,
        memo,
        ...(deadline !== undefined ? { deadline } : {}),
        ...(options.onStart ? { onStart: options.onStart } : {}),
        ...(options.onEnd ? { onEnd: options.onEnd } : {}),
      });
    const runs = await mapBounded(runsOf(foreground), concurrency, async (run) => {
      const done: AggregateItem[] = [];
      let chained: AnyEventPayload | undefined;
      for (const h of run.hooks) {
        const item = await runHook(h, chained);
        done.push(item);
        if (run.chains) chained = chainedPayload(chained ?? payloadOf(h), item, projectDir);
        // A dialect's in-order run ends at its first block or deny: later hooks never start.
        const d = item.verdict.decision;
        if (run.stopsAtBlock && (d === "block" || d === "deny")) break;
      }
      return done;
    });
    const items = runs.flat();
    const p: Record<string, unknown> = { ...payload };
    const tool: AggregateToolContext | undefined =
      typeof p.tool_name === "string" && isRecord(p.tool_input)
        ? { keelTool: p.tool_name, input: p.tool_input, projectDir }
        : undefined;
    return aggregate(event, items, tool);
  };

  /** Fires ConfigChange for every file that differs between two snapshots, with the hooks in
   *  force before (a new hook must not approve its own arrival); returns what blocked. */
  const fireConfigChanges = async (
    before: HookSnapshot,
    after: HookSnapshot,
  ): Promise<HookProblem[]> => {
    const common = opts.sessionPayload?.();
    if (!common || !before.byEvent.has("ConfigChange")) return [];
    const old = new Map(before.loaded.files.map((f) => [f.path, f.content]));
    const out: HookProblem[] = [];
    for (const file of after.loaded.files) {
      if (old.has(file.path) && old.get(file.path) === file.content) continue;
      const source = configSourceOf(file.path, after.loaded.sources, paths);
      const decision = await fireInner({
        event: "ConfigChange",
        payload: { ...common, hook_event_name: "ConfigChange", source, file_path: file.path },
      });
      if (decision.decision === "block" || decision.decision === "deny") {
        out.push({
          severity: "warning",
          path: file.path,
          message: `a ConfigChange hook blocked this change; the hooks in force are unchanged: ${decision.reason ?? "blocked"}`,
        });
      }
    }
    return out;
  };

  return {
    async fire(options) {
      try {
        const decision = await fireInner(options);
        if (trustLost.length > 0) decision.notices = trustLost.splice(0);
        return decision;
      } catch (err) {
        // A bug here must not take the agent down: report it as a pass with a visible message.
        const decision = aggregate(options.event, []);
        decision.systemMessages.push(
          `hooks engine error: ${err instanceof Error ? err.message : String(err)}`,
        );
        return decision;
      }
    },
    listing: () => snapshot.listing,
    async reload() {
      const next = await takeSnapshot(paths, opts.env);
      const blocked = await fireConfigChanges(snapshot, next);
      if (blocked.length === 0) snapshot = next;
      else {
        const problems = [...snapshot.listing.problems, ...blocked];
        const allProblems = [...snapshot.listing.allProblems, ...blocked];
        snapshot = { ...snapshot, listing: { ...snapshot.listing, problems, allProblems } };
      }
      return snapshot.listing;
    },
    changedOnDisk: () => snapshotChanged(snapshot),
    async trust() {
      // Trust what the user reviewed (the snapshot), not whatever is on disk now.
      await setTrust(keelHome, projectDir, snapshot.listing.projectTrust.hash);
      snapshot = applyTrust(snapshot.loaded, true, snapshot.executed);
    },
    async untrust() {
      await setTrust(keelHome, projectDir, null);
      snapshot = applyTrust(snapshot.loaded, false, snapshot.executed);
    },
    stats: () => stats.snapshot(),
    takeAsyncResults: () => background.take(),
    shutdown: async (o) => {
      await background.shutdown(o?.budgetMs ?? SESSION_END_BUDGET_MS);
      // Session end: what finished hooks left in their process groups goes too.
      await killLeftoverGroups();
    },
  };
}
