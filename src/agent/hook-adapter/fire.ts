/**
 * Firing hooks from the agent: fills the common payload fields, turns every run into a
 * `hook_run` event and every systemMessage into a notice (shown to the user, never the model).
 */
import type {
  EventPayloadFields,
  HookDecision,
  HookEngine,
  HookEventName,
  HookRunRecord,
} from "../../hooks/index.js";
import type { AgentEvent } from "../events.js";
import type { PermissionMode } from "../permissions/modes.js";
import { withProgress } from "../progress.js";

/** The session facts every payload carries. */
export interface HookSessionInfo {
  sessionId: string;
  transcriptPath: string;
  projectDir: string;
  permissionMode(): PermissionMode;
  /** The model the next request asks (every payload's `model`). */
  model?(): string;
  /** The effort level the model applies (payloads' `effort: {level}`), undefined for none. */
  effort?(): string | undefined;
  /** Set inside a sub-agent: every payload then carries `agent_id` and `agent_type`. */
  agent?: { id: string; type: string };
  /** Id of the user prompt being handled (set when a turn starts; none before the first). */
  promptId?: string;
  /** Keel's home, resolved: writes inside it are protected paths (permissions/protected-paths.ts). */
  keelHome?: string;
  /** The shell's current directory (every payload's `cwd`, as Claude Code sends its Bash cwd);
   *  absent: the project. Hooks still run in the project directory. */
  cwd?(): string;
}

/** The session facts for one call, whose hooks see the directory the call started in. */
export function infoAt(info: HookSessionInfo, cwd: string): HookSessionInfo {
  return { ...info, cwd: () => cwd };
}

/**
 * `model` and `effort: {level}` as the payload carries them: in Keel's own payload on every
 * event; each dialect keeps them where its agent sends them (hooks/dialects/*: Codex `model`
 * everywhere, Claude Code `effort` in a tool-use context, and `CLAUDE_EFFORT` with it).
 */
export function sessionModelFields(info: HookSessionInfo): {
  model?: string;
  effort?: { level: string };
} {
  const level = info.effort?.();
  return {
    ...(info.model ? { model: info.model() } : {}),
    ...(level !== undefined ? { effort: { level } } : {}),
  };
}

/** The level hooks are told for an effort resolution (none when the model takes none). */
export function effortLevelOf(
  effort: { ok: true; level: string } | { ok: false } | null,
): string | undefined {
  return effort?.ok ? effort.level : undefined;
}

/** A decision that lets everything through (no engine, or nothing ran). */
export function passDecision(event: HookEventName): HookDecision {
  return {
    event,
    decision: "pass",
    reason: null,
    updatedInput: null,
    updatedToolOutput: null,
    additionalContext: null,
    systemMessages: [],
    continue: true,
    stopReason: null,
    runs: [],
  };
}

/** Fires `event` and yields its runs and system messages; returns the aggregate decision. */
export async function* fireHook<E extends HookEventName>(
  engine: HookEngine,
  info: HookSessionInfo,
  event: E,
  fields: EventPayloadFields[E],
  signal?: AbortSignal,
  /** PostToolUseFailure of a tool that ran: the call as PostToolUse fields (FireOptions.ranAs). */
  ranAs?: EventPayloadFields["PostToolUse"],
): AsyncGenerator<AgentEvent, HookDecision> {
  const common = {
    session_id: info.sessionId,
    transcript_path: info.transcriptPath,
    cwd: info.cwd?.() ?? info.projectDir,
    permission_mode: info.permissionMode(),
    ...sessionModelFields(info),
    ...(info.agent ? { agent_id: info.agent.id, agent_type: info.agent.type } : {}),
    ...(info.promptId !== undefined && event !== "SessionStart"
      ? { prompt_id: info.promptId }
      : {}),
  };
  const payload = { ...common, hook_event_name: event, ...fields };
  let decision: HookDecision;
  try {
    decision = yield* withProgress<HookDecision, AgentEvent>((emit) =>
      engine.fire({
        event,
        payload,
        ...(ranAs
          ? { ranAs: { ...common, hook_event_name: "PostToolUse" as const, ...ranAs } }
          : {}),
        ...(signal ? { signal } : {}),
        onStart: (hook) => emit({ type: "hook_start", hook }),
        onEnd: (hook) => emit({ type: "hook_end", hook }),
      }),
    );
  } catch (err) {
    // The engine promises not to throw; if it does, the agent keeps going without hooks.
    yield { type: "notice", level: "error", text: `${event} hooks failed: ${messageOf(err)}` };
    return passDecision(event);
  }
  for (const text of decision.notices ?? []) yield { type: "notice", level: "warn", text };
  for (const run of decision.runs) yield { type: "hook_run", run };
  for (const text of decision.systemMessages) yield { type: "notice", level: "info", text };
  return decision;
}

/** Whether a decision stops the thing the event announces. */
export function isVeto(decision: HookDecision): boolean {
  return decision.decision === "block" || decision.decision === "deny";
}

/** Names the hook(s) behind a veto, for messages the model and the user read. */
export function vetoingHooks(decision: HookDecision): string {
  const runs = decision.runs.filter((r) => r.outcome === "block" || r.outcome === "timeout");
  const names = (runs.length > 0 ? runs : decision.runs).map(hookName);
  return names.length === 0 ? `a ${decision.event} hook` : names.join(", ");
}

/** A short human name of one hook: its command (first line, cut) and source file. */
export function hookName(run: HookRunRecord): string {
  const first = run.command.split("\n")[0] ?? "";
  const cmd = first.length > 80 ? `${first.slice(0, 79)}…` : first;
  return `${run.event} hook \`${cmd}\` (${run.source})`;
}

/** The reason of a veto, with a fallback that still says something. */
export function vetoReason(decision: HookDecision): string {
  const r = decision.reason?.trim();
  return r ? r : "no reason given";
}

/** Wraps hook-provided text so the model can tell it apart from tool output. */
export function hookContextBlock(event: HookEventName, text: string): string {
  return `<hook-context event="${event}">\n${text.trim()}\n</hook-context>`;
}

/** Error text of anything thrown. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
