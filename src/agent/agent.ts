/**
 * `createAgent`: builds the cache-first agent for one session — prefix, log, hooks (with the
 * prompt and agent runners wired), permissions — and exposes it as turn-by-turn event streams.
 */
import { randomUUID } from "node:crypto";
import type { HookEngine, HookRunRecord } from "../hooks/index.js";
import { createHookEngine, resolveHookPaths, SESSION_END_BUDGET_MS } from "../hooks/index.js";
import type { Usage } from "../llm/index.js";
import { resolveEffort } from "../llm/index.js";
import type { McpManager } from "../mcp/index.js";
import { type AnyTool, BUILTIN_TOOL_HOOK_FACTS, skillTool, toolSpecs } from "../tools/index.js";
import { loadAgentFiles } from "./agent-files.js";
import { autoCompactThreshold } from "./auto-compact.js";
import { allowanceFrom } from "./commands/allowed-tools.js";
import { loadCommands } from "./commands/load.js";
import { runUserTurn } from "./commands/turn-entry.js";
import { compactLog } from "./compact.js";
import { AgentCore } from "./core.js";
import { envFromFile, prepareEnvFile, sessionEnvFilePath } from "./env-file.js";
import type { AgentEvent } from "./events.js";
import { startFileChanged } from "./file-changed.js";
import {
  effortLevelOf,
  fireHook,
  type HookSessionInfo,
  sessionModelFields,
} from "./hook-adapter/fire.js";
import { createNullHookEngine } from "./hook-adapter/null-engine.js";
import { contextForModel } from "./hook-adapter/text.js";
import { openTranscripts, transcriptPaths, withTranscripts } from "./hook-adapter/transcripts.js";
import { agentMcp, mcpHookRunner, openMcp } from "./mcp.js";
import { elicitWithHooks } from "./mcp-elicit.js";
import type { MemoryReport } from "./memory.js";
import { loadSessionMemory, rememberMemory } from "./memory-load.js";
import { oneQuestionAtATime } from "./parallel-tasks.js";
import type { PermissionMode } from "./permissions/modes.js";
import { loadPermissionRules } from "./permissions/rules.js";
import { type DispatchContext, readBarTestOf, type StreamingRun } from "./pipeline/index.js";
import { ImmutablePrefix } from "./prefix.js";
import { createPromptRunner } from "./prompt-runner.js";
import { childProcessEnv, providerKeyPassed } from "./provider-env.js";
import { REQUEST_STRATEGIES } from "./reasoning.js";
import { prepareToolSpecs } from "./repair/index.js";
import { healDanglingCalls } from "./resume.js";
import { checkpointStep, checkpointStoreFor, rewindTo, trackTurns, userTurnsOf } from "./rewind.js";
import { loadSessionSettings } from "./settings.js";
import { loadSkills } from "./skills/load.js";
import { createAgentRunner } from "./subagent.js";
import { SYSTEM_PROMPT } from "./system-prompt.js";
import { createTaskTool, TASK_HOOK_FACTS, TASK_TOOL, taskStreaming } from "./task-tool.js";
import type { Agent, AgentOptions, AgentStats, SessionPort, TurnOptions } from "./types.js";

/**
 * A supplied engine, with every run it reports to the agent (firings and async results)
 * recorded in the session's hook audit log, as the agent's own engine does through `onRun`.
 */
function recordingRuns(engine: HookEngine, record: (run: HookRunRecord) => void): HookEngine {
  const fire: HookEngine["fire"] = async (o) => {
    const decision = await engine.fire(o);
    for (const run of decision.runs) record(run);
    return decision;
  };
  const takeAsyncResults: HookEngine["takeAsyncResults"] = () => {
    const results = engine.takeAsyncResults();
    for (const r of results) record(r.run);
    return results;
  };
  return new Proxy(engine, {
    get(target, prop) {
      if (prop === "fire") return fire;
      if (prop === "takeAsyncResults") return takeAsyncResults;
      const value: unknown = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Default model requests per user turn. */
export const DEFAULT_MAX_TURNS = 50;

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
  let session = opts.session ?? memorySession();
  const clock = opts.clock ?? Date.now;
  let mode: PermissionMode = opts.permissionMode ?? "default";
  const headless = opts.askPermission === undefined;
  // Hooks of other agents get a transcript in their own format (Claude Code's) and a
  // CLAUDE_ENV_FILE; both live under KEEL_HOME, so a session kept only in memory has neither.
  const filesHome = session.transcriptPath ? opts.keelHome : undefined;
  const transcripts =
    filesHome !== undefined
      ? openTranscripts({
          keelHome: filesHome,
          projectDir: opts.projectDir,
          sessionId: session.id,
          model: opts.model,
          headless,
        })
      : [];
  session = withTranscripts(session, transcripts, () => info.promptId);
  let envFile = filesHome !== undefined ? sessionEnvFilePath(filesHome, session.id) : "";
  if (envFile && !prepareEnvFile(envFile)) envFile = "";
  // Which user turn each live message belongs to (rewind), and the session's file checkpoints.
  const tracker = trackTurns(session);
  session = tracker.port;
  const checkpoints = checkpointStoreFor(session, opts.projectDir);
  // Permission rules (allow / deny / ask) of the settings files, Keel's and Claude Code's.
  const rulePaths = resolveHookPaths({
    projectDir: opts.projectDir,
    ...(opts.keelHome !== undefined ? { keelHome: opts.keelHome } : {}),
    ...(opts.homeDir !== undefined ? { homeDir: opts.homeDir } : {}),
    env: opts.env ?? process.env,
  });
  const info: HookSessionInfo = {
    sessionId: session.id,
    transcriptPath: session.transcriptPath,
    projectDir: opts.projectDir,
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
  let engine: HookEngine;
  // Set once the servers are up; the engine's mcp_tool runner reads it at call time.
  let mcp: McpManager | undefined;
  if (opts.hooks) engine = recordingRuns(opts.hooks, (run) => session.appendHookRun(run));
  else if (opts.noHooks) engine = createNullHookEngine();
  else {
    engine = await createHookEngine({
      projectDir: opts.projectDir,
      ...(opts.keelHome !== undefined ? { keelHome: opts.keelHome } : {}),
      env: childEnv,
      ...(opts.homeDir !== undefined ? { homeDir: opts.homeDir } : {}),
      tools: [...BUILTIN_TOOL_HOOK_FACTS, TASK_HOOK_FACTS],
      sessionPayload: () => ({
        session_id: info.sessionId,
        transcript_path: info.transcriptPath,
        cwd: info.projectDir,
        permission_mode: info.permissionMode(),
        ...sessionModelFields(info),
      }),
      promptRunner: createPromptRunner({
        client: opts.client,
        model: opts.cheapModel ?? opts.model,
        onUsage,
      }),
      agentRunner: createAgentRunner({
        client: opts.client,
        model: opts.model,
        hooks: () => engine,
        info,
        onUsage,
        ...(rules ? { rules } : {}),
      }),
      mcpToolRunner: mcpHookRunner(() => mcp),
      onRun: (run) => session.appendHookRun(run),
      session: {
        headless,
        ...(envFile ? { envFile } : {}),
        ...(transcripts.length > 0 ? { transcriptPaths: transcriptPaths(transcripts) } : {}),
      },
    });
  }

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
  const withSkill = skills.skills.length > 0 && !opts.tools.some((t) => t.name === skillTool.name);
  // MCP tools join the built-ins (and task, skill) before the prefix is rendered.
  const tools: AnyTool[] = [
    ...opts.tools,
    ...(withTask ? [createTaskTool(agentFiles.agents)] : []),
    ...(withSkill
      ? [
          skillTool.create(
            { cwd: opts.projectDir },
            // A loaded skill of the user's own (or an enabled plugin's) lets its allowed-tools
            // run without asking for the rest of the turn; a project's skill grants nothing.
            { skills: { skills: skills.skills, onLoad: (s) => grantForTurn(s) } },
          ),
        ]
      : []),
    ...(mcp?.tools() ?? []),
  ];
  function grantForTurn(skill: (typeof skills.skills)[number]): void {
    if (skill.source === "project" || skill.allowedTools.length === 0) return;
    const before = dispatchCtx.turnAllowed;
    const granted = allowanceFrom(skill.allowedTools);
    dispatchCtx.turnAllowed = (name, primary) =>
      before?.(name, primary) === true || granted(name, primary);
  }
  const streaming = new Map<string, StreamingRun>();
  if (withTask) {
    const parent = {
      client: opts.client,
      hooks: engine,
      info,
      clock,
      // Sub-agents of one reply run at once (parallel-tasks.ts): their questions take turns.
      askPermission: opts.askPermission && oneQuestionAtATime(opts.askPermission),
      autoApprove: opts.autoApprove ?? false,
      ...(opts.withoutProjectHooks ? { withoutProjectHooks: true } : {}),
      onUsage,
      ...(rules ? { rules } : {}),
      tools,
      model: opts.model,
      ...(opts.thinking !== undefined ? { thinking: opts.thinking } : {}),
      effort: () => core.requestedEffort,
    };
    streaming.set(
      TASK_TOOL,
      taskStreaming(parent, { ...settings.subagents, agents: agentFiles.agents }),
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
    ...(checkpoints ? { checkpoint: checkpointStep(checkpoints, () => core.turns) } : {}),
  };
  const prepared = prepareToolSpecs(toolSpecs(tools));
  const commands = loadCommands({
    projectDir: opts.projectDir,
    ...(opts.keelHome !== undefined ? { keelHome: opts.keelHome } : {}),
    homeDir: rulePaths.homeDir,
  });
  const prefix = new ImmutablePrefix({ systemPrompt: SYSTEM_PROMPT, tools: prepared.specs });
  const core: AgentCore = new AgentCore({
    client: opts.client,
    model: opts.model,
    prefix,
    repairTools: prepared.tools,
    hooks: engine,
    session,
    info,
    dispatch: dispatchCtx,
    maxTurns: opts.maxTurns ?? DEFAULT_MAX_TURNS,
    clock,
    ...(opts.thinking !== undefined ? { thinking: opts.thinking } : {}),
    ...(opts.effort !== undefined ? { effort: opts.effort } : {}),
    ...(opts.temperature !== undefined ? { temperature: opts.temperature } : {}),
    ...(opts.maxTokens !== undefined ? { maxTokens: opts.maxTokens } : {}),
    strategies: REQUEST_STRATEGIES,
    autoCompactAt: autoCompactThreshold(opts.model, settings.compaction),
    reasoning: {
      harvest: opts.harvest ?? false,
      branch: opts.branch ?? 1,
      cheapModel: opts.cheapModel ?? opts.model,
      ...(opts.branchSelector ? { selector: opts.branchSelector } : {}),
    },
    ...(settings.compaction.toolResultMaxChars !== undefined
      ? { toolResultMaxChars: settings.compaction.toolResultMaxChars }
      : {}),
  });
  // An effort the model takes differently, or not at all, is said once, not dropped silently.
  const effortAtStart = core.effort();
  if (effortAtStart && !effortAtStart.ok) {
    notices.push({
      type: "notice",
      level: "warn",
      text: `${effortAtStart.error}; running without`,
    });
  } else if (effortAtStart?.note) {
    notices.push({ type: "notice", level: "info", text: effortAtStart.note });
  }
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
    if (!envFile) return;
    // Sourced without Keel's secrets, which never reach the commands it feeds (env-file.ts).
    const env = await envFromFile(envFile, opts.env ?? process.env, {
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

  /** What the user should hear about the permission rules: bad rules, untrusted allow rules. */
  function ruleNotices(): string[] {
    if (!permissionRules) return [];
    const out = permissionRules.problems.map((p) => `permissions: ${p}`);
    const untrusted = permissionRules.skipped.filter(
      (r) =>
        r.kind === "allow" && !permissionRules.trusted && r.file.startsWith(rulePaths.projectDir),
    );
    if (untrusted.length > 0) {
      out.push(
        `permissions: ${untrusted.length} project allow rule${untrusted.length === 1 ? "" : "s"} not applied until the project is trusted (keel hooks trust): ${untrusted.map((r) => r.text).join(", ")}`,
      );
    }
    return out;
  }

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
      ...ruleNotices(),
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
            o.images,
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
        const began = clock();
        yield* fireHook(
          engine,
          info,
          "SessionEnd",
          { reason },
          AbortSignal.timeout(SESSION_END_BUDGET_MS),
        );
        const left = Math.max(0, SESSION_END_BUDGET_MS - (clock() - began));
        try {
          await engine.shutdown({ budgetMs: left });
        } catch {
          // shutdown must not throw; nothing else to do at exit.
        }
        await mcp?.close();
        // Background shell jobs end with the session (src/tools/shell-jobs.ts).
        await Promise.all(tools.map((t) => t.dispose?.().catch(() => undefined)));
      })(),
    memory: () => memory,
    getReasoning: () => ({ harvest: core.reasoning.harvest, branch: core.reasoning.branch }),
    setReasoning: (r) => {
      if (r.harvest !== undefined) core.reasoning.harvest = r.harvest;
      if (r.branch !== undefined) core.reasoning.branch = Math.max(1, Math.min(8, r.branch));
    },
    commands: () => commands,
    getPermissionMode: () => mode,
    setPermissionMode: (m) => {
      mode = m;
    },
    getEffort: () => {
      const asked = core.requestedEffort;
      return asked === null
        ? null
        : { asked, resolved: core.effort() ?? resolveEffort(opts.model, asked) };
    },
    setEffort: (level) => {
      if (level === null) {
        core.setEffort(null);
        return null;
      }
      // Checked against the session's model first: a level it cannot take is not kept.
      const resolved = resolveEffort(opts.model, level);
      if (resolved.ok) core.setEffort(level);
      return resolved;
    },
    stats: (): AgentStats => {
      const { cacheHitTokens: hit, cacheMissTokens: miss } = core.usage;
      return {
        sessionId: session.id,
        requests: core.requests,
        usage: { ...core.usage },
        costUsd: core.costUsd,
        costWithoutCacheUsd: core.costWithoutCacheUsd,
        cacheHitRatio: hit + miss === 0 ? 0 : hit / (hit + miss),
        compactions: core.log.compactions,
        compactionLog: core.compactionLog.map((c) => ({ ...c })),
        prefixFingerprint: prefix.fingerprint,
        prefixRevisions: prefix.revisions,
        messages: core.log.length,
      };
    },
    rewind: (toTurn, what) => {
      if (busy) throw new Error("rewind: a turn is running; wait for it to end");
      return rewindTo(core, tracker, checkpoints, toTurn, what);
    },
    userTurns: () => userTurnsOf(core, tracker),
    transcript: () => core.log.messages(),
  };
  return agent;
}
