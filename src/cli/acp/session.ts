/**
 * One ACP session: a Keel agent (the same core `keel run` and the TUI drive) whose events become
 * `session/update` notifications and whose permission questions go to the editor through
 * `session/request_permission`. The editor is asked only through the agent's `askPermission`
 * callback, which the pipeline consults after rules, modes and PreToolUse hooks
 * (src/agent/dispatch.ts): a hook's deny is final before the editor hears of the call.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import type {
  Agent,
  AgentEvent,
  PermissionAnswer,
  PermissionMode,
  PermissionPrompt,
} from "../../agent/index.js";
import {
  childProcessEnv,
  createAgent,
  type OpenedSession,
  openAgentSession,
  parseRendered,
} from "../../agent/index.js";
import type { LlmConfig } from "../../llm/index.js";
import { createChatClient, modelTakesImages } from "../../llm/index.js";
import { observeAgent, type Telemetry } from "../../telemetry/index.js";
import { createBuiltinTools } from "../../tools/index.js";
import { startAcpMcp } from "./mcp.js";
import { promptOf } from "./prompt.js";
import {
  diffContent,
  finishedStatus,
  planEntries,
  proposedText,
  stopReasonOf,
  textContent,
  toolKind,
  toolPath,
  toolTitle,
} from "./updates.js";

/** The modes an editor may pick (bypassPermissions is left to the terminal, on purpose). */
export const ACP_MODES: readonly acp.SessionMode[] = [
  { id: "default", name: "Default", description: "Ask before edits and commands" },
  { id: "acceptEdits", name: "Accept edits", description: "Edit files without asking" },
  { id: "plan", name: "Plan", description: "Read only: no edits, no commands" },
];

/** Files larger than this get no diff (an editor diff of a huge file helps no one). */
const MAX_DIFF_BYTES = 1024 * 1024;

/** What opening a session needs. */
export interface AcpSessionOptions {
  /** Calls the editor (updates, permission requests). */
  client: acp.AgentContext;
  keelHome: string;
  llm: LlmConfig & { apiKey: string };
  projectDir: string;
  /** A Keel session id to resume (session/load); absent for session/new. */
  resume?: string;
  editorMcp: readonly acp.McpServer[];
  env: NodeJS.ProcessEnv;
  /** Harvest plan state from the reasoning (`keel acp --harvest`): sent as plan updates. */
  harvest?: boolean;
  /** The process's telemetry (null when off): each session is its own `invoke_agent` span. */
  telemetry?: Telemetry | null;
}

/** A call the editor has been told about and whose result has not come yet. */
interface OpenCall {
  id: string;
  name: string;
  path: string | null;
  /** The file before the call (null: absent or not a file edit). */
  oldText: string | null;
  /** Said to be in progress (its first output came). */
  running: boolean;
}

/** One open ACP session. */
export class AcpSession {
  private turn: AbortController | null = null;
  private readonly open = new Map<string, OpenCall>();
  private asked = 0;

  private constructor(
    private readonly client: acp.AgentContext,
    private readonly agent: Agent,
    private readonly stored: OpenedSession,
    private readonly projectDir: string,
  ) {}

  /** Opens a new session or resumes one (`resume`), its agent and its MCP servers. */
  static async open(o: AcpSessionOptions): Promise<AcpSession> {
    const stored = openAgentSession({
      keelHome: o.keelHome,
      projectDir: o.projectDir,
      model: o.llm.model,
      ...(o.resume !== undefined ? { resume: o.resume } : {}),
    });
    let self: AcpSession | undefined;
    try {
      const mcpServers = await startAcpMcp({
        projectDir: o.projectDir,
        keelHome: o.keelHome,
        editorServers: o.editorMcp,
        env: o.env,
      });
      const agent = await createAgent({
        projectDir: o.projectDir,
        keelHome: o.keelHome,
        env: o.env,
        client: createChatClient({
          baseUrl: o.llm.baseUrl,
          apiKey: o.llm.apiKey,
          streamIdleMs: o.llm.streamIdleMs,
        }),
        model: o.llm.model,
        ...(o.llm.cheapModel ? { cheapModel: o.llm.cheapModel } : {}),
        tools: createBuiltinTools(
          {
            cwd: o.projectDir,
            env: childProcessEnv(o.env, { keelHome: o.keelHome, apiKey: o.llm.apiKey }),
          },
          // As keel run and the TUI: read_file says it reads images to a model that takes them.
          modelTakesImages(o.llm.model) ? { vision: true } : {},
        ),
        session: stored,
        // The editor answers; `self` exists before any turn can ask.
        askPermission: (prompt, opts) =>
          self ? self.askEditor(prompt, opts.signal) : Promise.resolve("deny"),
        ...(mcpServers ? { mcpServers } : {}),
        ...(o.harvest ? { harvest: true } : {}),
      }).catch(async (err: unknown) => {
        await mcpServers?.close();
        throw err;
      });
      const observed = o.telemetry
        ? observeAgent(agent, o.telemetry.session({ sessionId: stored.id, model: o.llm.model }))
        : agent;
      self = new AcpSession(o.client, observed, stored, o.projectDir);
      return self;
    } catch (err) {
      stored.close();
      throw err;
    }
  }

  get id(): string {
    return this.stored.id;
  }

  /** The modes as session/new and session/load report them. */
  modes(): acp.SessionModeState {
    return { currentModeId: this.agent.getPermissionMode(), availableModes: [...ACP_MODES] };
  }

  /** session/set_mode. */
  setMode(mode: PermissionMode): void {
    this.agent.setPermissionMode(mode);
  }

  /** session/load: the stored conversation's user and assistant text, streamed back. */
  async replay(): Promise<void> {
    for (const bytes of this.stored.messages) {
      const msg = parseRendered(bytes);
      if (msg === null || typeof msg.content !== "string" || msg.content === "") continue;
      const content = { type: "text" as const, text: msg.content };
      if (msg.role === "user") await this.send({ sessionUpdate: "user_message_chunk", content });
      if (msg.role === "assistant") {
        await this.send({ sessionUpdate: "agent_message_chunk", content });
      }
    }
  }

  /** session/prompt: one Keel turn; resolves when it ends. */
  async prompt(blocks: readonly acp.ContentBlock[]): Promise<acp.PromptResponse> {
    if (this.turn !== null) throw new Error("a prompt is already running in this session");
    const controller = new AbortController();
    this.turn = controller;
    let stop: acp.StopReason | null = null;
    let failure: string | null = null;
    try {
      const { text, typed, images } = promptOf(blocks);
      for await (const ev of this.agent.runTurn(text, {
        signal: controller.signal,
        ...(images.length > 0 ? { imageData: images } : {}),
        ...(typed !== text ? { typed } : {}),
      })) {
        if (ev.type === "turn_end") {
          stop = stopReasonOf(ev.stopReason);
          if (stop === null) failure ??= ev.text || "the turn failed";
        } else if (ev.type === "error") {
          failure = ev.message;
        } else if (ev.type === "notice" && ev.level === "error") {
          failure ??= ev.text;
        }
        await this.forward(ev);
      }
    } finally {
      this.turn = null;
      this.open.clear();
    }
    if (controller.signal.aborted) return { stopReason: "cancelled" };
    if (stop === null) throw new Error(failure ?? "the turn ended without a result");
    return { stopReason: stop };
  }

  /** session/cancel: ends the running turn (its tool and hooks are killed). */
  cancel(): void {
    this.turn?.abort();
  }

  /** Fires SessionEnd, stops MCP servers and closes the session file. */
  async close(): Promise<void> {
    this.turn?.abort();
    try {
      for await (const _ of this.agent.end("exit")) {
        // Drained: SessionEnd's output goes nowhere once the editor has gone.
      }
    } finally {
      this.stored.close();
    }
  }

  private send(update: acp.SessionUpdate): Promise<void> {
    return this.client.notify("session/update", { sessionId: this.id, update });
  }

  /** One agent event as zero or more updates. */
  private async forward(ev: AgentEvent): Promise<void> {
    switch (ev.type) {
      case "text_delta":
        return this.send({
          sessionUpdate: "agent_message_chunk",
          content: { type: "text", text: ev.text },
        });
      case "reasoning_delta":
        return this.send({
          sessionUpdate: "agent_thought_chunk",
          content: { type: "text", text: ev.text },
        });
      case "notice":
        // For the user only (never the model): a thought line, which every editor shows.
        if (ev.level === "info") return;
        return this.send({
          sessionUpdate: "agent_thought_chunk",
          content: { type: "text", text: `\nkeel: ${ev.text}\n` },
        });
      case "tool_call":
        return this.toolStarted(ev);
      case "tool_output": {
        // Once per call: a command printing a lot is not an update per chunk.
        const call = this.open.get(ev.id);
        if (call === undefined || call.running) return;
        call.running = true;
        return this.send({
          sessionUpdate: "tool_call_update",
          toolCallId: ev.id,
          status: "in_progress",
        });
      }
      case "tool_result":
        return this.toolFinished(ev);
      case "harvest":
        if (ev.plan.subgoals.length === 0) return;
        return this.send({ sessionUpdate: "plan", entries: planEntries(ev.plan) });
      default:
        return;
    }
  }

  private async toolStarted(ev: Extract<AgentEvent, { type: "tool_call" }>): Promise<void> {
    const path = toolPath(this.projectDir, ev.input, resolve);
    const edits = ev.name === "write_file" || ev.name === "edit_file";
    const oldText = edits && path !== null ? await readSmall(path) : null;
    this.open.set(ev.id, { id: ev.id, name: ev.name, path, oldText, running: false });
    await this.send({
      sessionUpdate: "tool_call",
      toolCallId: ev.id,
      title: toolTitle(ev.name, ev.input),
      kind: toolKind(ev.name),
      status: "pending",
      rawInput: ev.input,
      ...(path !== null ? { locations: [{ path }] } : {}),
      content: diffContent(path, oldText, proposedText(ev.name, ev.input, oldText)),
    });
  }

  private async toolFinished(ev: Extract<AgentEvent, { type: "tool_result" }>): Promise<void> {
    const call = this.open.get(ev.id);
    this.open.delete(ev.id);
    if (call === undefined) return;
    const content: acp.ToolCallContent[] = [];
    if (
      ev.status === "ok" &&
      call.path !== null &&
      (call.name === "write_file" || call.name === "edit_file")
    ) {
      // What the file holds now, not what the call proposed: a hook may have rewritten it.
      content.push(...diffContent(call.path, call.oldText, await readSmall(call.path)));
    }
    content.push(textContent(ev.content));
    await this.send({
      sessionUpdate: "tool_call_update",
      toolCallId: ev.id,
      status: finishedStatus(ev.status),
      content,
    });
  }

  /**
   * The agent's askPermission: the call goes to the editor as session/request_permission. Never
   * throws: no answer (the editor failed, the turn was cancelled) is a deny.
   */
  private async askEditor(
    prompt: PermissionPrompt,
    signal: AbortSignal,
  ): Promise<PermissionAnswer> {
    // The call the agent asks about is the latest one of that tool still open (calls run one at
    // a time; a sub-agent's are not open here and get an id of their own).
    const call = [...this.open.values()].reverse().find((c) => c.name === prompt.toolName);
    const toolCallId = call?.id ?? `keel-permission-${++this.asked}`;
    const path = toolPath(this.projectDir, prompt.input, resolve);
    // The file as the call found it; read now for a call not announced here (a sub-agent's, or
    // a hook rewrote the path).
    const edits = prompt.toolName === "write_file" || prompt.toolName === "edit_file";
    const oldText =
      call !== undefined && call.path === path
        ? call.oldText
        : edits && path !== null
          ? await readSmall(path)
          : null;
    const options: acp.PermissionOption[] = [
      { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
      ...(prompt.always !== null
        ? [
            {
              optionId: "allow_always",
              // The agent's own words for what the answer allows ("Allow all write_file calls…").
              name: prompt.always,
              kind: "allow_always" as const,
            },
          ]
        : []),
      { optionId: "deny", name: "Reject", kind: "reject_once" },
    ];
    try {
      const res = await this.client.request(
        "session/request_permission",
        {
          sessionId: this.id,
          toolCall: {
            toolCallId,
            title: toolTitle(prompt.toolName, prompt.input),
            kind: toolKind(prompt.toolName),
            status: "pending",
            rawInput: prompt.input,
            ...(path !== null ? { locations: [{ path }] } : {}),
            content: diffContent(
              path,
              oldText,
              proposedText(prompt.toolName, prompt.input, oldText),
            ),
          },
          options,
        },
        // A cancelled turn does not wait for an editor that never answers the question.
        { cancellationSignal: signal, stopWaitingOnCancel: true },
      );
      if (signal.aborted || res.outcome.outcome !== "selected") return "deny";
      const picked = res.outcome.optionId;
      return picked === "allow_once" || picked === "allow_always" ? picked : "deny";
    } catch {
      return "deny";
    }
  }
}

/** A file's text, or null when it is absent, unreadable or too large to diff. */
async function readSmall(path: string): Promise<string | null> {
  try {
    const buf = await readFile(path);
    return buf.length > MAX_DIFF_BYTES ? null : buf.toString("utf8");
  } catch {
    return null;
  }
}
