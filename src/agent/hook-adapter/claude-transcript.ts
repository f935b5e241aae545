/**
 * A Claude Code-format transcript of a Keel session, for Claude Code hooks: their payload's
 * `transcript_path` points here, and hooks that parse it (the ralph-wiggum Stop hook reads the
 * last assistant text) find Claude's JSONL entries — `{type: "user"|"assistant", message:
 * {role, content: [...]}}` with Claude's tool names and inputs. Kept up to date line by line
 * as Keel appends to its own session, so a Stop hook sees the answer it is judging.
 */
import { randomUUID } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { claudeDialect } from "../../hooks/dialects/claude/index.js";
import type { ChatMessage } from "../../llm/types.js";
import { VERSION } from "../../version.js";
import type { SessionPort } from "../types.js";

/** Where the Claude-format transcript of a session lives: Claude's `projects/<slug>/<id>.jsonl` layout under KEEL_HOME. */
export function claudeTranscriptPath(keelHome: string, projectDir: string, sessionId: string) {
  const slug = projectDir.replace(/[^A-Za-z0-9]/g, "-");
  return join(keelHome, "claude-projects", slug, `${sessionId}.jsonl`);
}

/** Writes Claude-format lines for the messages of one session. Never throws. */
export class ClaudeTranscript {
  readonly path: string;
  #parent: string | null = null;
  #opts: { sessionId: string; projectDir: string; model: string; entrypoint: string };

  constructor(
    path: string,
    opts: { sessionId: string; projectDir: string; model: string; entrypoint: string },
  ) {
    this.path = path;
    this.#opts = opts;
  }

  /** Appends the entry of one Keel message (its stored bytes). */
  append(bytes: string, promptId: string | undefined): void {
    let message: ChatMessage;
    try {
      message = JSON.parse(bytes) as ChatMessage;
    } catch {
      return;
    }
    const entry = this.#entry(message, promptId);
    if (entry === null) return;
    try {
      mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
      appendFileSync(this.path, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
    } catch {
      // Hooks then read an incomplete transcript; Keel's own session is unaffected.
    }
  }

  #entry(m: ChatMessage, promptId: string | undefined): Record<string, unknown> | null {
    const uuid = randomUUID();
    const common = {
      parentUuid: this.#parent,
      isSidechain: false,
      uuid,
      timestamp: new Date().toISOString(),
      userType: "external",
      entrypoint: this.#opts.entrypoint,
      cwd: this.#opts.projectDir,
      sessionId: this.#opts.sessionId,
      version: VERSION,
    };
    let entry: Record<string, unknown>;
    if (m.role === "user") {
      entry = {
        ...common,
        ...(promptId ? { promptId } : {}),
        type: "user",
        message: { role: "user", content: m.content ?? "" },
      };
    } else if (m.role === "assistant") {
      const content: Record<string, unknown>[] = [];
      if (m.reasoning_content) content.push({ type: "thinking", thinking: m.reasoning_content });
      if (m.content) content.push({ type: "text", text: m.content });
      for (const call of m.tool_calls ?? []) {
        content.push({
          type: "tool_use",
          id: call.id,
          name: claudeDialect.toolName(call.function.name),
          input: this.#claudeInput(call.function.name, call.function.arguments),
        });
      }
      entry = {
        ...common,
        type: "assistant",
        message: {
          id: `msg_${uuid.replaceAll("-", "")}`,
          type: "message",
          role: "assistant",
          model: this.#opts.model,
          content,
          stop_reason: (m.tool_calls?.length ?? 0) > 0 ? "tool_use" : "end_turn",
          stop_sequence: null,
        },
      };
    } else if (m.role === "tool") {
      entry = {
        ...common,
        ...(promptId ? { promptId } : {}),
        type: "user",
        message: {
          role: "user",
          content: [
            { tool_use_id: m.tool_call_id ?? "", type: "tool_result", content: m.content ?? "" },
          ],
        },
      };
    } else {
      return null;
    }
    this.#parent = uuid;
    return entry;
  }

  #claudeInput(tool: string, args: string): unknown {
    try {
      const input = JSON.parse(args) as Record<string, unknown>;
      return claudeDialect.inputToDialect(tool, input, { projectDir: this.#opts.projectDir });
    } catch {
      return {};
    }
  }
}

/**
 * The session port with a Claude transcript following it: every message Keel stores is also
 * written there; a resumed session's earlier messages are written first when the file is new.
 */
export function withClaudeTranscript(
  session: SessionPort,
  transcript: ClaudeTranscript,
  promptId: () => string | undefined,
): SessionPort {
  if (!existsSync(transcript.path)) {
    for (const bytes of session.messages) transcript.append(bytes, undefined);
  }
  return new Proxy(session, {
    get(target, prop) {
      if (prop === "appendMessage") {
        return (bytes: string, meta: { turn: number }) => {
          target.appendMessage(bytes, meta);
          transcript.append(bytes, promptId());
        };
      }
      if (prop === "recordCompaction") {
        return (messages: readonly string[], meta: { turn: number }) => {
          target.recordCompaction(messages, meta);
          for (const bytes of messages) transcript.append(bytes, promptId());
        };
      }
      const value: unknown = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
