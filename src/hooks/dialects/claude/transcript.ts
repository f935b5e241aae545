/**
 * A Claude Code-format transcript of a Keel session, for Claude Code hooks: their payload's
 * `transcript_path` points here, and hooks that parse it (the ralph-wiggum Stop hook reads the
 * last assistant text) find Claude's JSONL entries — `{type: "user"|"assistant", message:
 * {role, content: [...]}}` with Claude's tool names and inputs. The agent feeds it every message
 * Keel appends to its own session (agent/hook-adapter/transcripts.ts), so a Stop hook sees the
 * answer it is judging.
 */
import { randomUUID } from "node:crypto";
import { appendFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import type { DialectTranscript, TranscriptFacts } from "../types.js";
import { claudeTools } from "./tools.js";

/** The fields of a stored chat message the transcript reads (structurally the llm layer's
 *  ChatMessage, which hooks/ may not import). */
interface StoredMessage {
  role: string;
  content?: string | null;
  reasoning_content?: string | null;
  tool_calls?: readonly { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

/** Where the Claude-format transcript of a session lives: Claude's `projects/<slug>/<id>.jsonl` layout under KEEL_HOME. */
export function claudeTranscriptPath(keelHome: string, projectDir: string, sessionId: string) {
  const slug = projectDir.replace(/[^A-Za-z0-9]/g, "-");
  return join(keelHome, "claude-projects", slug, `${sessionId}.jsonl`);
}

/** The Claude dialect's transcript writer (Dialect.transcript). */
export function claudeTranscript(facts: TranscriptFacts): DialectTranscript {
  return new ClaudeTranscript(
    claudeTranscriptPath(facts.keelHome, facts.projectDir, facts.sessionId),
    {
      sessionId: facts.sessionId,
      projectDir: facts.projectDir,
      model: facts.model,
      // Claude Code's `-p` mode names itself so.
      entrypoint: facts.headless ? "sdk-cli" : "cli",
      version: facts.version,
    },
  );
}

interface ClaudeTranscriptOptions {
  sessionId: string;
  projectDir: string;
  model: string;
  entrypoint: string;
  version: string;
}

/** Writes Claude-format lines for the messages of one session. Never throws. */
export class ClaudeTranscript implements DialectTranscript {
  readonly path: string;
  #parent: string | null = null;
  #opts: ClaudeTranscriptOptions;

  constructor(path: string, opts: ClaudeTranscriptOptions) {
    this.path = path;
    this.#opts = opts;
  }

  /** Appends the entry of one Keel message (its stored bytes). */
  append(bytes: string, promptId: string | undefined): void {
    let message: StoredMessage;
    try {
      message = JSON.parse(bytes) as StoredMessage;
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

  #entry(m: StoredMessage, promptId: string | undefined): Record<string, unknown> | null {
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
      version: this.#opts.version,
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
      entry = { ...common, type: "assistant", message: this.#assistantMessage(m, uuid) };
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

  /** An assistant message as Claude's API returns one: thinking, text, then tool_use blocks. */
  #assistantMessage(m: StoredMessage, uuid: string): Record<string, unknown> {
    const content: Record<string, unknown>[] = [];
    if (m.reasoning_content) content.push({ type: "thinking", thinking: m.reasoning_content });
    if (m.content) content.push({ type: "text", text: m.content });
    for (const call of m.tool_calls ?? []) {
      content.push({
        type: "tool_use",
        id: call.id,
        name: claudeTools.toolName(call.function.name),
        input: this.#claudeInput(call.function.name, call.function.arguments),
      });
    }
    return {
      id: `msg_${uuid.replaceAll("-", "")}`,
      type: "message",
      role: "assistant",
      model: this.#opts.model,
      content,
      stop_reason: (m.tool_calls?.length ?? 0) > 0 ? "tool_use" : "end_turn",
      stop_sequence: null,
    };
  }

  #claudeInput(tool: string, args: string): unknown {
    try {
      const input = JSON.parse(args) as Record<string, unknown>;
      return claudeTools.inputToDialect(tool, input, { projectDir: this.#opts.projectDir });
    } catch {
      return {};
    }
  }
}
