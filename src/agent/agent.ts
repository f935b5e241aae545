/**
 * `createAgent`: builds the cache-first agent for one session — prefix, log, hooks (with the
 * prompt and agent runners wired), permissions — and exposes it as turn-by-turn event streams.
 */
import { randomUUID } from "node:crypto";
import type { HookEngine } from "../hooks/index.js";
import { resolveHookPaths, SESSION_END_BUDGET_MS } from "../hooks/index.js";
import type { Usage } from "../llm/index.js";
import type { McpManager } from "../mcp/index.js";
import { SHELL_CWD_EVENT } from "../session/index.js";
import { type AnyTool, toolSpecs } from "../tools/index.js";
import { loadAgentFiles } from "./agent-files.js";
import {
  coreControls,
  effortNotice,
  otherAgentsFiles,
  ruleNotices,
  sessionCore,
  sessionHookEngine,
  sessionTools,
  taskStreamingRun,
} from "./agent-setup.js";
import { allowanceFrom } from "./commands/allowed-tools.js";
import { loadCommands } from "./commands/load.js";
import { runUserTurn } from "./commands/turn-entry.js";
import { compactLog } from "./compact.js";
import type { AgentCore } from "./core.js";
import { envFromFile } from "./env-file.js";
import type { AgentEvent } from "./events.js";
import { startFileChanged } from "./file-changed.js";
import { effortLevelOf, fireHook, type HookSessionInfo } from "./hook-adapter/fire.js";
import { contextForModel } from "./hook-adapter/text.js";
import { agentMcp, openMcp } from "./mcp.js";
import { elicitWithHooks } from "./mcp-elicit.js";
import type { MemoryReport } from "./memory.js";
import { loadSessionMemory, rememberMemory } from "./memory-load.js";
import type { PermissionMode } from "./permissions/modes.js";
import { loadPermissionRules } from "./permissions/rules.js";
import {
  type DispatchContext,
  readBarTestOf,
  SessionCwd,
  type StreamingRun,
} from "./pipeline/index.js";
import { ImmutablePrefix } from "./prefix.js";
import { childProcessEnv, providerKeyPassed } from "./provider-env.js";
import { prepareToolSpecs } from "./repair/index.js";
import { healDanglingCalls } from "./resume.js";
import { checkpointStep, checkpointStoreFor, rewindTo, trackTurns, userTurnsOf } from "./rewind.js";
import { loadSessionSettings } from "./settings.js";
import { loadSkills } from "./skills/load.js";
import { SYSTEM_PROMPT } from "./system-prompt.js";
import { TASK_TOOL } from "./task-tool.js";
import type { Agent, AgentOptions, SessionPort, TurnOptions } from "./types.js";

export { DEFAULT_MAX_TURNS } from "./agent-setup.js";

/** SessionEnd within its budget, then the engine, the MCP servers and the tools' background
 *  jobs are shut down. */
async function* endSession(
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

/** A session that keeps nothing on disk (library use without a store). */
export function memorySession(id: string = randomUUID()): SessionPort {
  return {
    id,
    transcriptPath: "",
    messages: [],
    appendMessage: () => {},
    recordCompaction: () => {},
    appendUsage: () => {},
    appendHookRun: () => {},
  };
}

/**
 * Creates an agent for one session. A session whose port holds stored messages is resumed:
 * its bytes are replayed exactly, and SessionStart fires with `source: "resume"`.
 */
export async function createAgent(opts: AgentOptions): Promise<Agent> {
  const clock = opts.clock ?? Date.now;
  let mode: PermissionMode = opts.permissionMode ?? "default";
  const headless = opts.askPermission === undefined;
  const files = otherAgentsFiles(
    opts.session ?? memorySession(),
    opts,
    headless,
    () => info.promptId,
  );
  // Which user turn each live message belongs to (rewind), and the session's file checkpoints.
  const tracker = trackTurns(files.session);
  const session = tracker.port;
  const checkpoints = checkpointStoreFor(session, opts.projectDir);
  // Permission rules (allow / deny / ask) of the settings files, Keel's and Claude Code's.
  const rulePaths = resolveHookPaths({
    projectDir: opts.projectDir,
    ...(opts.keelHome !== undefined ? { keelHome: opts.keelHome } : {}),
    ...(opts.homeDir !== undefined ? { homeDir: opts.homeDir } : {}),
    env: opts.env ?? process.env,
  });
  // Where the shell is (Claude Code's Bash cwd): kept per session, recorded in its file so a
  // resumed session starts there; a rewind of the conversation puts it back (pipeline/shell-cwd.ts).
  const shellCwd = new SessionCwd(opts.projectDir, {
    turn: () => core.turns,
    record: (r) => session.recordEvent?.(SHELL_CWD_EVENT, r),
    ...(session.shellCwds ? { history: session.shellCwds } : {}),
  });
  const info: HookSessionInfo = {
    sessionId: session.id,
    transcriptPath: session.transcriptPath,
    projectDir: opts.projectDir,
    cwd: () => shellCwd.get(),
    permissionMode: () => mode,
    // The core is built below; hooks fire only after that.
    model: () => core.model,
    effort: () => effortLevelOf(core.effort()),
    // Everything under it is a protected path (permissions/protected-paths.ts).
    keelHome: rulePaths.keelHome,
  };
  const onUsage = (model: string, usage: Usage) => core.accountExternal(model, usage);

  // Hooks and MCP servers never see Keel's provider key (unless the user passes it).
  const childEnv = childProcessEnv(opts.env ?? process.env, {
    ...(opts.keelHome !== undefined ? { keelHome: opts.keelHome } : {}),
  });
  const permissionRules =
    opts.permissionRules === false
      ? undefined
      : (opts.permissionRules ?? loadPermissionRules(rulePaths));
  const rules = permissionRules
    ? { rules: permissionRules.rules, homeDir: rulePaths.homeDir }
    : undefined;
  // Set once the servers are up; the engine's mcp_tool runner reads it at call time.
  let mcp: McpManager | undefined;
  const engine = await sessionHookEngine(opts, {
    session,
    info,
    childEnv,
    rules,
    headless,
    envFile: files.envFile,
    transcripts: files.transcripts,
    onUsage,
    mcp: () => mcp,
  });

  const notices: AgentEvent[] = [];
  mcp =
    opts.mcpServers === undefined
      ? undefined
      : await openMcp({
          servers: opts.mcpServers,
          projectDir: opts.projectDir,
          env: childEnv,
          notices,
          onElicit: elicitWithHooks({
            engine: () => engine,
            info,
            notices,
            ...(opts.onElicit ? { user: opts.onElicit } : {}),
          }),
          ...(opts.mcpStartupTimeoutMs !== undefined
            ? { startupTimeoutMs: opts.mcpStartupTimeoutMs }
            : {}),
        });
  const loaded = opts.settings
    ? { settings: opts.settings, warnings: [] as string[] }
    : loadSessionSettings({
        projectDir: opts.projectDir,
        ...(opts.keelHome !== undefined ? { keelHome: opts.keelHome } : {}),
      });
  const settings = loaded.settings;
  const withTask = opts.subagents !== false && !opts.tools.some((t) => t.name === TASK_TOOL);
  // Skills and agent files are read once, here: their lists go into the skill and task tools'
  // descriptions, pinned with the prefix for the session (src/tools/skill.ts says why there).
  const skills = await loadSkills(rulePaths);
  const agentFiles = withTask ? loadAgentFiles(rulePaths) : { agents: [], problems: [] };
  const tools = sessionTools(opts, {
    agents: withTask ? agentFiles.agents : null,
    skills: skills.skills,
    // A loaded skill of the user's own (or an enabled plugin's) lets its allowed-tools run
    // without asking for the rest of the turn; a project's skill grants nothing.
    onSkillLoad: (skill) => {
      if (skill.source === "project" || skill.allowedTools.length === 0) return;
      const before = dispatchCtx.turnAllowed;
      const granted = allowanceFrom(skill.allowedTools);
      dispatchCtx.turnAllowed = (name, primary) =>
        before?.(name, primary) === true || granted(name, primary);
    },
    mcp,
  });
  const streaming = new Map<string, StreamingRun>();
  // One checkpoint step for the session and its task sub-agents: their writes are snapshotted
  // under the session's current user turn (core.turns), which a rewind of that turn restores.
  const checkpoint = checkpoints ? checkpointStep(checkpoints, () => core.turns) : undefined;
  if (withTask) {
    streaming.set(
      TASK_TOOL,
      taskStreamingRun(opts, {
        engine,
        info,
        clock,
        onUsage,
        rules,
        tools,
        effort: () => core.requestedEffort,
        settings,
        agents: agentFiles.agents,
        ...(checkpoint ? { checkpoint } : {}),
      }),
    );
  }
  const dispatchCtx: DispatchContext = {
    tools,
    streaming,
    hooks: engine,
    info,
    askPermission: opts.askPermission,
    autoApprove: opts.autoApprove ?? false,
    ...(opts.withoutProjectHooks ? { withoutProjectHooks: true } : {}),
    allowed: opts.allowedAnswers ?? new Set(),
    clock,
    ...(rules ? { rules } : {}),
    ...(checkpoint ? { checkpoint } : {}),
    shellCwd,
    // CwdChanged hooks may write CLAUDE_ENV_FILE and name files to watch, as SessionStart's do.
    afterCwdChanged: async (decision) => {
      fileChanged?.add(decision.extras?.watchPaths ?? []);
      await readEnvFile();
    },
  };
  const prepared = prepareToolSpecs(toolSpecs(tools));
  const commands = loadCommands({
    projectDir: opts.projectDir,
    ...(opts.keelHome !== undefined ? { keelHome: opts.keelHome } : {}),
    homeDir: rulePaths.homeDir,
  });
  const prefix = new ImmutablePrefix({ systemPrompt: SYSTEM_PROMPT, tools: prepared.specs });
  const core: AgentCore = sessionCore(opts, {
    prefix,
    prepared,
    engine,
    session,
    info,
    dispatch: dispatchCtx,
    clock,
    settings,
  });
  const effortAtStart = effortNotice(core);
  if (effortAtStart) notices.push(effortAtStart);
  const resumed = session.messages.length > 0;
  if (resumed) {
    const restored = core.log.restore(session.messages);
    if (!restored.ok) await mcp?.close();
    if (!restored.ok) throw new Error(`cannot resume session ${session.id}: ${restored.error}`);
    // Turns go on numbering from the stored ones, so `rewind N` names one turn of the file.
    core.turns = Math.max(0, ...tracker.turns);
    healDanglingCalls(core.log);
    // The conversation is as big as when it was left: automatic compaction counts from there.
    core.lastPromptTokens = session.promptTokens ?? 0;
  }

  let started = false;
  let ended = false;
  let busy = false;
  let memory: MemoryReport | null = null;
  let fileChanged: ReturnType<typeof startFileChanged> = null;

  /** Variables SessionStart / FileChanged hooks wrote to CLAUDE_ENV_FILE, for later tools. */
  async function readEnvFile(): Promise<void> {
    if (!files.envFile) return;
    // Sourced without Keel's secrets, which never reach the commands it feeds (env-file.ts).
    const env = await envFromFile(files.envFile, opts.env ?? process.env, {
      passSecrets: providerKeyPassed(rulePaths.keelHome),
    });
    if (Object.keys(env).length > 0) dispatchCtx.toolEnv = env;
  }
  const memoryOptions = {
    projectDir: opts.projectDir,
    ...(opts.keelHome !== undefined ? { keelHome: opts.keelHome } : {}),
    ...(opts.homeDir !== undefined ? { homeDir: opts.homeDir } : {}),
    readBarred: readBarTestOf(dispatchCtx),
  };

  /** MCP announcements (failed servers, late ones, changed tool lists) since the last event. */
  function* drainNotices(): Generator<AgentEvent> {
    while (notices.length > 0) {
      const next = notices.shift();
      if (next) yield next;
    }
  }

  async function* start(o: TurnOptions = {}): AsyncGenerator<AgentEvent> {
    if (!started) {
      const untrusted = mcp?.untrustedNotice();
      if (untrusted) notices.push({ type: "notice", ...untrusted });
    }
    yield* drainNotices();
    if (started) return;
    started = true;
    const startSource = opts.startSource ?? (resumed ? "resume" : "startup");
    if (opts.setupTrigger !== undefined) {
      const setup = yield* fireHook(
        engine,
        info,
        "Setup",
        { trigger: opts.setupTrigger },
        o.signal,
      );
      core.addPending("Setup", contextForModel(setup));
    }
    const decision = yield* fireHook(
      engine,
      info,
      "SessionStart",
      { source: startSource },
      o.signal,
    );
    const loadProblems = [...skills.problems, ...agentFiles.problems];
    for (const text of [
      ...loaded.warnings,
      ...commands.problems,
      ...loadProblems,
      ...ruleNotices(permissionRules, rulePaths),
    ]) {
      yield { type: "notice", level: "warn", text };
    }
    core.addPending("SessionStart", contextForModel(decision, { source: startSource }));
    await readEnvFile();
    fileChanged = startFileChanged({ engine, info, notices, afterFiring: readEnvFile }, decision);
    if (opts.memory !== false) {
      if (!resumed)
        memory = yield* loadSessionMemory(core, memoryOptions, "session_start", o.signal);
      // A resumed session already holds its memory in its first user message; it is read now
      // only so that a compaction (which replaces that message) can put it back.
      else memory = rememberMemory(core, memoryOptions);
    }
  }

  /** Serializes turns and compactions: one thing at a time per session. */
  async function* exclusive(body: AsyncGenerator<AgentEvent>): AsyncGenerator<AgentEvent> {
    if (ended) {
      yield { type: "error", message: "the session has ended" };
      return;
    }
    if (busy) {
      yield { type: "error", message: "a turn is already running in this session" };
      return;
    }
    busy = true;
    try {
      yield* body;
    } finally {
      busy = false;
    }
  }

  const never = new AbortController().signal;

  const agent: Agent = {
    sessionId: session.id,
    transcriptPath: session.transcriptPath,
    hooks: engine,
    ...(mcp ? { mcp: agentMcp({ manager: mcp, tools, repairTools: prepared.tools, prefix }) } : {}),
    start: (o) => exclusive(start(o)),
    runTurn: (prompt, o = {}) =>
      exclusive(
        (async function* () {
          yield* start(o);
          const signal = o.signal ?? never;
          yield* runUserTurn(
            core,
            {
              catalog: commands,
              projectDir: opts.projectDir,
              hooks: engine,
              info,
              pipeline: dispatchCtx,
              ...(mcp ? { mcpPrompts: mcp } : {}),
            },
            prompt,
            signal,
            { explicit: o.images, inline: o.imageData, typed: o.typed },
          );
          // What MCP servers said during the turn (elicitations, exits, list changes).
          yield* drainNotices();
        })(),
      ),
    compact: (o = {}) =>
      exclusive(
        (async function* () {
          yield* start(o.signal ? { signal: o.signal } : {});
          yield* compactLog(core, {
            ...(o.instructions !== undefined ? { instructions: o.instructions } : {}),
            signal: o.signal ?? never,
          });
        })(),
      ),
    end: (reason = "exit") =>
      (async function* (): AsyncGenerator<AgentEvent> {
        if (ended) return;
        ended = true;
        fileChanged?.close();
        yield* endSession({ engine, info, clock, mcp, tools }, reason);
      })(),
    memory: () => memory,
    commands: () => commands,
    getPermissionMode: () => mode,
    setPermissionMode: (m) => {
      mode = m;
    },
    ...coreControls(core, opts, session.id, prefix),
    rewind: (toTurn, what) => {
      if (busy) throw new Error("rewind: a turn is running; wait for it to end");
      const report = rewindTo(core, tracker, checkpoints, toTurn, what);
      // The shell goes back with the conversation (a files-only rewind leaves it where it is).
      if (what.conversation) shellCwd.rewindTo(toTurn);
      return report;
    },
    userTurns: () => userTurnsOf(core, tracker),
    transcript: () => core.log.messages(),
  };
  return agent;
}
