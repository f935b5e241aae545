/** A scripted TuiBackend: the agent yields hand-made AgentEvent sequences. */
import type { AgentEvent } from "../../../src/agent/events.js";
import type { PermissionMode } from "../../../src/agent/permissions/modes.js";
import type { AgentStats } from "../../../src/agent/types.js";
import type {
  TuiAgent,
  TuiBackend,
  TuiHooks,
  TuiSessionSummary,
} from "../../../src/cli/tui/backend.js";
import type { HookDefinition, HookListing, HookStats } from "../../../src/hooks/types.js";

/** A turn script: yields events; may await the abort signal. */
export type TurnScript = (prompt: string, signal: AbortSignal) => AsyncIterable<AgentEvent>;

/** What the fake records so tests can assert on it. */
export interface FakeLog {
  calls: string[];
  ended: string[];
  trusted: number;
  /** How often the stored sessions were listed. */
  sessionLists: number;
}

/** A project hook definition for listings. */
export function hookDef(over: Partial<HookDefinition> = {}): HookDefinition {
  return {
    id: "hook-1",
    event: "PreToolUse",
    matcher: "shell",
    handler: { type: "command", command: "./scripts/guard.sh" },
    source: { path: "/proj/.keel/settings.json", dialect: "keel", scope: "project" },
    order: 0,
    trusted: true,
    active: true,
    problems: [],
    ...over,
  };
}

/** Options of {@link fakeBackend}. */
export interface FakeOptions {
  turn?: TurnScript;
  hooks?: HookDefinition[];
  trusted?: boolean;
  stats?: HookStats[];
  startEvents?: AgentEvent[];
  endEvents?: AgentEvent[];
  compactEvents?: AgentEvent[];
  /** File-level problems of the hook listing. */
  problems?: HookListing["problems"];
  /** What `changedOnDisk` answers. */
  changedOnDisk?: boolean;
  /** Stored message bytes of the session (a resumed one has some). */
  transcript?: string[];
  /** What `sessions()` lists (default: one other session with a prompt). */
  sessions?: TuiSessionSummary[];
  /** What the backend's `hookStats()` (the session's audit log) answers; absent: no such method. */
  sessionHookStats?: HookStats[];
}

async function* events(list: AgentEvent[]): AsyncIterable<AgentEvent> {
  for (const e of list) yield e;
}

/** Builds the backend and its log. */
export function fakeBackend(opts: FakeOptions = {}): { backend: TuiBackend; log: FakeLog } {
  const log: FakeLog = { calls: [], ended: [], trusted: 0, sessionLists: 0 };
  let trusted = opts.trusted ?? true;
  let mode: PermissionMode = "default";
  let model = "deepseek-v4-flash";
  let generation = 0;
  const listing = (): HookListing => {
    const hooks = (opts.hooks ?? []).map((h) => ({
      ...h,
      trusted: h.source.scope === "user" || trusted,
    }));
    return {
      hooks,
      problems: opts.problems ?? [],
      allProblems: [...(opts.problems ?? []), ...hooks.flatMap((h) => h.problems)],
      sources: [...new Map(hooks.map((h) => [h.source.path, h.source])).values()],
      projectTrust: {
        trusted,
        hash: "abc",
        hasProjectHooks: hooks.some((h) => h.source.scope !== "user"),
      },
    };
  };
  const hooks: TuiHooks = {
    listing,
    reload: async () => {
      log.calls.push("reload");
      return listing();
    },
    trust: async () => {
      log.trusted++;
      trusted = true;
    },
    untrust: async () => {
      trusted = false;
    },
    stats: () => opts.stats ?? [],
    changedOnDisk: async () => opts.changedOnDisk ?? false,
  };
  const stats = (): AgentStats => ({
    sessionId: `session-${generation}`,
    requests: 2,
    usage: {
      promptTokens: 1000,
      cacheHitTokens: 900,
      cacheMissTokens: 100,
      completionTokens: 50,
      reasoningTokens: 0,
    },
    costUsd: 0.0021,
    costWithoutCacheUsd: 0.01,
    cacheHitRatio: 0.9,
    compactions: 0,
    prefixFingerprint: "fp",
    messages: 4,
  });
  const makeAgent = (): TuiAgent => {
    const id = `session-${generation}`;
    return {
      sessionId: id,
      hooks,
      start: () => {
        log.calls.push(`start:${id}`);
        return events(opts.startEvents ?? []);
      },
      runTurn: (prompt, o) => {
        log.calls.push(`turn:${prompt}`);
        const script = opts.turn ?? defaultTurn;
        return script(prompt, o?.signal ?? new AbortController().signal);
      },
      compact: () => {
        log.calls.push("compact");
        return events(
          opts.compactEvents ?? [{ type: "compacted", beforeMessages: 10, afterMessages: 2 }],
        );
      },
      end: (reason = "exit") => {
        log.ended.push(`${id}:${reason}`);
        return events(opts.endEvents ?? []);
      },
      getPermissionMode: () => mode,
      setPermissionMode: (m) => {
        mode = m;
      },
      stats,
      transcript: () => opts.transcript ?? [],
    };
  };
  let agent = makeAgent();
  const backend: TuiBackend = {
    projectDir: "/proj",
    agent: () => agent,
    model: () => model,
    models: () => ["deepseek-v4-flash", "deepseek-v4-pro"],
    sessions: () => {
      log.sessionLists++;
      if (opts.sessions) return opts.sessions;
      return [
        {
          id: "0123456789abcdef",
          updatedAt: "2025-01-02T03:04:05Z",
          messages: 6,
          firstPrompt: "fix the bug",
          model,
        },
      ];
    },
    ...(opts.sessionHookStats ? { hookStats: () => opts.sessionHookStats ?? [] } : {}),
    replace: async (o) => {
      if (o.resume && !o.resume.startsWith("0123"))
        return { ok: false, error: `no session ${o.resume}` };
      generation++;
      if (o.model) model = o.model;
      agent = makeAgent();
      return { ok: true };
    },
  };
  return { backend, log };
}

/** The default turn: some text, done. */
export const defaultTurn: TurnScript = async function* (prompt) {
  yield { type: "turn_start", turn: 1, prompt };
  yield { type: "request_start", turn: 1, request: 1 };
  yield { type: "text_delta", text: `echo: ${prompt}` };
  yield { type: "turn_end", turn: 1, text: `echo: ${prompt}`, stopReason: "end" };
};

/** Resolves when the signal aborts. */
export function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
}
