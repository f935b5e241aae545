/**
 * The real TuiBackend: opens sessions through the session store and builds agents with the
 * TUI's permission bridge, so /clear, /resume and /model can replace the agent in place.
 */
import { createAgent } from "../../agent/agent.js";
import type { Agent, PermissionMode } from "../../agent/index.js";
import { sessionToolOptions } from "../../agent/index.js";
import { childProcessEnv } from "../../agent/provider-env.js";
import { type OpenedSession, openAgentSession } from "../../agent/session.js";
import type { EffortLevel } from "../../llm/index.js";
import { loadModelTable } from "../../llm/pricing.js";
import type { ChatClient } from "../../llm/types.js";
import type { ElicitationHandler } from "../../mcp/index.js";
import {
  listSessions,
  readHookAudit,
  SessionError,
  summarizeHookRuns,
} from "../../session/index.js";
import { observeAgent, type Telemetry } from "../../telemetry/index.js";
import { createBuiltinTools } from "../../tools/registry.js";
import { startSessionServers } from "../mcp/session-servers.js";
import type { TuiBackend } from "./backend.js";
import type { PermissionBridge } from "./permission-bridge.js";
import { onAgentOpened } from "./session-commands.js";
import { SLASH_COMMANDS } from "./slash.js";

/** Options of {@link createSessionBackend}. */
export interface SessionBackendOptions {
  projectDir: string;
  keelHome: string;
  model: string;
  cheapModel?: string;
  /** The effort level to ask for (`--effort`, config.json); /effort changes it. */
  effort?: EffortLevel;
  client: ChatClient;
  permissions: PermissionBridge;
  permissionMode?: PermissionMode;
  /** Resume this session id (or unique prefix). */
  resume?: string;
  /** Resume the project's latest session. */
  continueLatest?: boolean;
  /** Called when a session write fails. Must not throw. */
  onWriteError?: (err: unknown) => void;
  /** Shows an MCP server's elicitation request to the user (absent: declined). */
  onElicit?: ElicitationHandler;
  /** Aborted when the user quits before the first session is open: MCP servers still starting
   *  are not waited for. */
  quitting?: AbortSignal;
  /** The MCP servers a session being opened still waits for ([] when it waits no more). */
  onWaiting?: (names: string[]) => void;
  /** The process's telemetry (null or absent when off): each agent opened gets a session on it,
   *  so spans and metrics keep flowing through /clear, /resume and /model. */
  telemetry?: Telemetry | null;
}

/** The backend plus what the caller needs at start and exit. */
export interface SessionBackend {
  backend: TuiBackend;
  /** Warnings from reading a resumed session (a torn last line, ...). */
  warnings: readonly string[];
  /** Closes every session file opened. */
  close(): void;
}

/** What one agent is opened with: a new session, a resumed one, or the same under a new model. */
interface OpenAgent {
  resume?: string;
  continueLatest?: boolean;
  model: string;
  mode?: PermissionMode;
  effort?: EffortLevel;
  startSource?: "clear";
  quitting?: AbortSignal;
}

/**
 * Opens a session file, starts its MCP servers and builds its agent (observed when telemetry is
 * on). The session is pushed to `opened` at once, so closing the backend closes it even if the
 * agent cannot be built.
 */
async function openSessionAgent(
  opts: SessionBackendOptions,
  o: OpenAgent,
  allowed: (sessionId: string) => Set<string>,
  opened: OpenedSession[],
) {
  const session = openAgentSession({
    keelHome: opts.keelHome,
    projectDir: opts.projectDir,
    model: o.model,
    ...(o.resume !== undefined ? { resume: o.resume } : {}),
    ...(o.continueLatest ? { continueLatest: true } : {}),
    ...(opts.onWriteError ? { onError: opts.onWriteError } : {}),
  });
  opened.push(session);
  const mcpServers = await startSessionServers({
    projectDir: opts.projectDir,
    keelHome: opts.keelHome,
    ...(o.quitting ? { signal: o.quitting } : {}),
    ...(opts.onWaiting ? { onWaiting: opts.onWaiting } : {}),
  });
  try {
    // Problems in the web settings are printed by `keel run`; the TUI does not show them yet.
    const { options } = sessionToolOptions({
      keelHome: opts.keelHome,
      transcriptPath: session.transcriptPath,
      model: o.model,
    });
    const tools = createBuiltinTools(
      { cwd: opts.projectDir, env: childProcessEnv(process.env, { keelHome: opts.keelHome }) },
      options,
    );
    const agent = await createAgent({
      projectDir: opts.projectDir,
      keelHome: opts.keelHome,
      client: opts.client,
      model: o.model,
      ...(opts.cheapModel ? { cheapModel: opts.cheapModel } : {}),
      tools,
      session,
      askPermission: (request, { signal }) => opts.permissions.ask(request, { signal }),
      allowedAnswers: allowed(session.id),
      ...(o.mode ? { permissionMode: o.mode } : {}),
      ...(o.effort !== undefined ? { effort: o.effort } : {}),
      ...(o.startSource ? { startSource: o.startSource } : {}),
      ...(mcpServers ? { mcpServers } : {}),
      ...(opts.onElicit ? { onElicit: opts.onElicit } : {}),
    });
    onAgentOpened(
      agent,
      SLASH_COMMANDS.map((c) => c.name),
    );
    // Off: the agent itself, no wrapper in the event path.
    const observed = opts.telemetry
      ? observeAgent(agent, opts.telemetry.session({ sessionId: session.id, model: o.model }))
      : agent;
    return { agent: observed, session, jobs: options.jobs };
  } catch (err) {
    await mcpServers?.close();
    session.close();
    throw err;
  }
}

/**
 * "Allow always" answers by session id: they last as long as the session, through /model and a
 * /resume back to it, as the prompt's label says ("for this session"); /clear starts afresh.
 */
function answersBySession(): (sessionId: string) => Set<string> {
  const answers = new Map<string, Set<string>>();
  return (sessionId) => {
    let set = answers.get(sessionId);
    if (set === undefined) {
      set = new Set();
      answers.set(sessionId, set);
    }
    return set;
  };
}

/** The models /model offers: those of the model table not retired and not the simulator's. */
function offeredModels(current: string): string[] {
  const table = loadModelTable();
  if (!table.ok) return [current];
  const today = new Date().toISOString().slice(0, 10);
  return Object.entries(table.table.models)
    .filter(([, m]) => m.retiredAfter === undefined || m.retiredAfter >= today)
    .filter(([, m]) => m.simulatorOnly !== true)
    .map(([name]) => name);
}

/** The project's sessions /resume offers. */
function resumableSessions(opts: SessionBackendOptions) {
  return (
    listSessions({ keelHome: opts.keelHome, projectDir: opts.projectDir })
      // A prompt the model never answered (the run failed) is nothing to resume: as `keel sessions`.
      .filter((s) => s.messages === 0 || s.answered)
      .map((s) => ({
        id: s.id,
        updatedAt: s.updatedAt,
        messages: s.messages,
        firstPrompt: s.firstPrompt,
        ...(s.title !== undefined ? { title: s.title } : {}),
        model: s.model,
      }))
  );
}

/** Opens the first session and returns the backend. Throws SessionError for a bad resume id. */
export async function createSessionBackend(opts: SessionBackendOptions): Promise<SessionBackend> {
  const opened: OpenedSession[] = [];
  let model = opts.model;
  const allowed = answersBySession();
  const open = (o: OpenAgent) => openSessionAgent(opts, o, allowed, opened);

  const first = await open({
    model,
    ...(opts.resume !== undefined ? { resume: opts.resume } : {}),
    ...(opts.continueLatest ? { continueLatest: true } : {}),
    ...(opts.permissionMode ? { mode: opts.permissionMode } : {}),
    ...(opts.effort !== undefined ? { effort: opts.effort } : {}),
    ...(opts.quitting ? { quitting: opts.quitting } : {}),
  });
  let agent: Agent = first.agent;
  let jobs = first.jobs;

  const backend: TuiBackend = {
    projectDir: opts.projectDir,
    agent: () => agent,
    model: () => model,
    models: () => offeredModels(model),
    sessions: () => resumableSessions(opts),
    jobs: () => jobs.list(),
    killJob: (id) => jobs.kill(id),
    hookStats: () =>
      summarizeHookRuns(
        readHookAudit({ keelHome: opts.keelHome, sessionId: agent.sessionId }).records,
      ),
    replace: async (o) => {
      const nextModel = o.model ?? model;
      const resume = o.resume ?? (o.model ? agent.sessionId : undefined);
      // The effort level asked for (by /effort too) carries over, as the permission mode does.
      const effort = agent.getEffort()?.asked;
      try {
        const next = await open({
          model: nextModel,
          mode: agent.getPermissionMode(),
          ...(effort !== undefined ? { effort } : {}),
          ...(resume !== undefined ? { resume } : {}),
          // Neither a resume nor a model switch: /clear began a fresh session.
          ...(resume === undefined ? { startSource: "clear" as const } : {}),
        });
        agent = next.agent;
        jobs = next.jobs;
        model = nextModel;
        return { ok: true };
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        return {
          ok: false,
          error: err instanceof SessionError ? message : `cannot open the session: ${message}`,
        };
      }
    },
  };
  return {
    backend,
    warnings: first.session.warnings,
    close: () => {
      for (const s of opened) s.close();
    },
  };
}
