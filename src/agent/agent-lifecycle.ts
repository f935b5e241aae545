/**
 * A session's life after `createAgent` built it: SessionStart (once, before the first turn),
 * one turn or compaction at a time, and SessionEnd. The state is one object the agent's methods
 * share (agent.ts).
 */
import type { HookEngine } from "../hooks/index.js";
import { SESSION_END_BUDGET_MS } from "../hooks/index.js";
import type { McpManager } from "../mcp/index.js";
import type { AnyTool } from "../tools/index.js";
import type { AgentCore } from "./core.js";
import type { AgentEvent } from "./events.js";
import { startFileChanged } from "./file-changed.js";
import { fireHook, type HookSessionInfo } from "./hook-adapter/fire.js";
import { contextForModel } from "./hook-adapter/text.js";
import type { MemoryOptions, MemoryReport } from "./memory.js";
import { loadSessionMemory, rememberMemory } from "./memory-load.js";
import type { Agent, AgentOptions, TurnOptions } from "./types.js";

/** Where the session is in its life. */
export interface Lifecycle {
  started: boolean;
  ended: boolean;
  /** A turn or compaction is running. */
  busy: boolean;
  memory: MemoryReport | null;
  fileChanged: ReturnType<typeof startFileChanged>;
}

/** A session not yet started. */
export function newLifecycle(): Lifecycle {
  return { started: false, ended: false, busy: false, memory: null, fileChanged: null };
}

/** What SessionStart needs of the session. */
export interface StartParts {
  opts: AgentOptions;
  engine: HookEngine;
  info: HookSessionInfo;
  core: AgentCore;
  mcp: McpManager | undefined;
  /** MCP announcements not yet yielded; FileChanged firings add theirs. */
  notices: AgentEvent[];
  resumed: boolean;
  /** What reading the session's files found wrong, said once at start. */
  warnings: () => string[];
  /** Reads CLAUDE_ENV_FILE after SessionStart and each FileChanged firing. */
  readEnvFile: () => Promise<void>;
  memoryOptions: MemoryOptions;
}

/** MCP announcements (failed servers, late ones, changed tool lists) since the last event. */
export function* drainNotices(notices: AgentEvent[]): Generator<AgentEvent> {
  while (notices.length > 0) {
    const next = notices.shift();
    if (next) yield next;
  }
}

/**
 * Setup (when asked for) and SessionStart, once per session; every later call only passes on
 * the MCP notices gathered since. Then the warnings of the session's files, CLAUDE_ENV_FILE,
 * the FileChanged watcher and the memory files.
 */
export async function* startSession(
  p: StartParts,
  state: Lifecycle,
  o: TurnOptions = {},
): AsyncGenerator<AgentEvent> {
  if (!state.started) {
    const untrusted = p.mcp?.untrustedNotice();
    if (untrusted) p.notices.push({ type: "notice", ...untrusted });
  }
  yield* drainNotices(p.notices);
  if (state.started) return;
  state.started = true;
  const startSource = p.opts.startSource ?? (p.resumed ? "resume" : "startup");
  if (p.opts.setupTrigger !== undefined) {
    const setup = yield* fireHook(
      p.engine,
      p.info,
      "Setup",
      { trigger: p.opts.setupTrigger },
      o.signal,
    );
    p.core.addPending("Setup", contextForModel(setup));
  }
  const decision = yield* fireHook(
    p.engine,
    p.info,
    "SessionStart",
    { source: startSource },
    o.signal,
  );
  for (const text of p.warnings()) yield { type: "notice", level: "warn", text };
  p.core.addPending("SessionStart", contextForModel(decision, { source: startSource }));
  await p.readEnvFile();
  state.fileChanged = startFileChanged(
    { engine: p.engine, info: p.info, notices: p.notices, afterFiring: p.readEnvFile },
    decision,
  );
  if (p.opts.memory !== false) {
    if (!p.resumed) {
      state.memory = yield* loadSessionMemory(p.core, p.memoryOptions, "session_start", o.signal);
    }
    // A resumed session already holds its memory in its first user message; it is read now
    // only so that a compaction (which replaces that message) can put it back.
    else state.memory = rememberMemory(p.core, p.memoryOptions);
  }
}

/** Serializes turns and compactions: one thing at a time per session. */
export async function* exclusive(
  state: Lifecycle,
  body: AsyncGenerator<AgentEvent>,
): AsyncGenerator<AgentEvent> {
  if (state.ended) {
    yield { type: "error", message: "the session has ended" };
    return;
  }
  if (state.busy) {
    yield { type: "error", message: "a turn is already running in this session" };
    return;
  }
  state.busy = true;
  try {
    yield* body;
  } finally {
    state.busy = false;
  }
}

/** SessionEnd within its budget, then the engine, the MCP servers and the tools' background
 *  jobs are shut down. */
export async function* endSession(
  s: {
    engine: HookEngine;
    info: HookSessionInfo;
    clock: () => number;
    mcp: McpManager | undefined;
    tools: readonly AnyTool[];
  },
  reason: NonNullable<Parameters<Agent["end"]>[0]>,
): AsyncGenerator<AgentEvent> {
  const began = s.clock();
  yield* fireHook(
    s.engine,
    s.info,
    "SessionEnd",
    { reason },
    AbortSignal.timeout(SESSION_END_BUDGET_MS),
  );
  const left = Math.max(0, SESSION_END_BUDGET_MS - (s.clock() - began));
  try {
    await s.engine.shutdown({ budgetMs: left });
  } catch {
    // shutdown must not throw; nothing else to do at exit.
  }
  await s.mcp?.close();
  // Background shell jobs end with the session (src/tools/shell-jobs.ts).
  await Promise.all(s.tools.map((t) => t.dispose?.().catch(() => undefined)));
}
