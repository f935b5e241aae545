/**
 * `keel acp`: Keel as an Agent Client Protocol agent over stdio, built on the official SDK
 * (`@agentclientprotocol/sdk`, ACP v1 stable). stdout carries only JSON-RPC; Keel's own notes go
 * to stderr, which editors keep as the agent's log. Loaded only when `keel acp` runs
 * (src/cli/commands/acp.ts imports it on demand), so no other command pays for the SDK.
 */
import { stat } from "node:fs/promises";
import { isAbsolute } from "node:path";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { PERMISSION_MODES, type PermissionMode } from "../../agent/index.js";
import { modelTakesImages } from "../../llm/index.js";
import { keelHomeFrom, SessionError } from "../../session/index.js";
import { openTelemetry } from "../../telemetry/index.js";
import { VERSION } from "../../version.js";
import { loadConfig } from "../llm-config.js";
import { writeStderr } from "../stdout.js";
import { ACP_MODES, AcpSession } from "./session.js";

/** Serves ACP on stdin/stdout until the editor closes the connection. */
export async function serveAcp(
  opts: { harvest?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<void> {
  const env = opts.env ?? process.env;
  const sessions = new Map<string, AcpSession>();
  const keelHome = keelHomeFrom(env);
  // One set of exporters for the editor's whole connection, flushed when it closes; the SDK
  // loads only when telemetry is on. stdout is the protocol: a problem goes to stderr.
  const { telemetry, problem } = await openTelemetry({ env, keelHome, frontEnd: "acp" });
  if (problem !== null) writeStderr(`keel: ${problem}\n`);

  const base = { keelHome, env, harvest: opts.harvest === true, telemetry };
  const open = (
    client: acp.AgentContext,
    params: { cwd: string; mcpServers?: acp.McpServer[] | null },
    resume?: string,
  ) => openSession(base, client, params, resume);

  const sessionOf = (id: string): AcpSession => {
    const s = sessions.get(id);
    if (s === undefined) throw acp.RequestError.resourceNotFound(id);
    return s;
  };

  const app = acp
    .agent({ name: "keel" })
    .onRequest(acp.methods.agent.initialize, () => initializeAnswer(keelHome, env))
    .onRequest(acp.methods.agent.session.new, ({ params, client }) =>
      said(async () => {
        const s = await open(client, params);
        sessions.set(s.id, s);
        return { sessionId: s.id, modes: s.modes() };
      }),
    )
    .onRequest(acp.methods.agent.session.load, ({ params, client }) =>
      said(async () => {
        const already = sessions.get(params.sessionId);
        if (already) await already.close();
        const s = await open(client, params, params.sessionId);
        sessions.set(s.id, s);
        await s.replay();
        return { modes: s.modes() };
      }),
    )
    .onRequest(acp.methods.agent.session.prompt, ({ params }) =>
      said(() => sessionOf(params.sessionId).prompt(params.prompt)),
    )
    .onRequest(acp.methods.agent.session.setMode, ({ params }) => {
      const mode = ACP_MODES.find((m) => m.id === params.modeId)?.id;
      if (mode === undefined || !(PERMISSION_MODES as readonly string[]).includes(mode)) {
        throw acp.RequestError.invalidParams(
          undefined,
          `unknown mode "${params.modeId}" (modes: ${ACP_MODES.map((m) => m.id).join(", ")})`,
        );
      }
      sessionOf(params.sessionId).setMode(mode as PermissionMode);
      return {};
    })
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    });

  const stream = acp.ndJsonStream(
    Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
    Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
  );
  const connection = app.connect(stream);
  await connection.closed;
  // The editor has gone: SessionEnd hooks run, MCP servers stop, session files close.
  for (const s of sessions.values()) await s.close().catch(() => {});
  await telemetry?.shutdown();
}

/** What Keel tells the editor it can do. */
async function initializeAnswer(keelHome: string, env: NodeJS.ProcessEnv) {
  // Images are asked for when the configured model takes them (data/models.json); one sent
  // anyway to another model refuses the prompt, naming the model (agent/images.ts).
  const config = await loadConfig({ keelHome, env });
  const image = config.ok && modelTakesImages(config.config.model);
  return {
    protocolVersion: acp.PROTOCOL_VERSION,
    agentInfo: { name: "keel", title: "Keel", version: VERSION },
    agentCapabilities: {
      loadSession: true,
      promptCapabilities: { image, audio: false, embeddedContext: true },
      mcpCapabilities: { http: true, sse: true },
    },
    authMethods: [],
  };
}

/**
 * Opens a session for the editor in `params.cwd` (an absolute directory), with Keel's model
 * configuration and the editor's MCP servers; `resume` loads a stored one.
 */
async function openSession(
  base: {
    keelHome: string;
    env: NodeJS.ProcessEnv;
    harvest: boolean;
    telemetry: Parameters<typeof AcpSession.open>[0]["telemetry"];
  },
  client: acp.AgentContext,
  params: { cwd: string; mcpServers?: acp.McpServer[] | null },
  resume?: string,
): Promise<AcpSession> {
  if (!isAbsolute(params.cwd)) {
    throw acp.RequestError.invalidParams(
      undefined,
      `cwd must be an absolute path (got "${params.cwd}")`,
    );
  }
  if (!(await stat(params.cwd).catch(() => null))?.isDirectory()) {
    throw acp.RequestError.invalidParams(undefined, `cwd: not a directory: ${params.cwd}`);
  }
  const config = await loadConfig({ keelHome: base.keelHome, env: base.env });
  if (!config.ok) throw new Error(config.error);
  const { apiKey } = config.config;
  if (!apiKey) {
    throw new Error(
      `no API key: set DEEPSEEK_API_KEY in the editor's agent environment, or add "apiKey" to ${config.config.path}`,
    );
  }
  try {
    return await AcpSession.open({
      client,
      llm: { ...config.config, apiKey },
      projectDir: params.cwd,
      ...(resume !== undefined ? { resume } : {}),
      editorMcp: params.mcpServers ?? [],
      ...base,
    });
  } catch (err) {
    if (err instanceof SessionError) throw acp.RequestError.resourceNotFound(resume);
    throw err;
  }
}

/**
 * Runs a handler, giving the editor the reason of a failure (no key, a failed model request):
 * the SDK answers a plain Error with a bare "Internal error", which tells the user nothing.
 */
async function said<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof acp.RequestError) throw err;
    throw acp.RequestError.internalError(
      undefined,
      err instanceof Error ? err.message : String(err),
    );
  }
}
