/**
 * The session's life as the App runs it, one named step each: a prompt starts (a turn or a slash
 * command), the next queued one follows, the session opens (start-up notices, the trust question,
 * SessionStart), the trust answer, and quitting (SessionEnd). Each takes the {@link Flow} the App
 * builds on every render (use-session-flow.ts), so a step sees that render's state, as the
 * closures inside the App did.
 */
import type { AgentEvent } from "../../agent/index.js";
import { plural } from "../format/text.js";
import type { SlashIO } from "./commands.js";
import { trustSubject } from "./components/trust-prompt.js";
import type { PromptHistory } from "./history.js";
import { hookProblemLines } from "./hook-problems.js";
import { loadMarkdown } from "./markdown-loader.js";
import { parseSlash } from "./slash.js";
import { pushEntries, rebaseCost, type TranscriptState } from "./transcript.js";
import type { useApprovals } from "./use-approvals.js";
import type { usePicker } from "./use-picker.js";
import type { OpenedBackend, useSessionBackend } from "./use-session-backend.js";
import type { useSessionIds } from "./use-session-ids.js";
import type { useTaskQueue } from "./use-task-queue.js";

/** What the steps work with: the App's state of this render and its parts. */
export interface Flow {
  session: ReturnType<typeof useSessionBackend>;
  approvals: ReturnType<typeof useApprovals>;
  tasks: ReturnType<typeof useTaskQueue>;
  picker: ReturnType<typeof usePicker>;
  sessionIds: ReturnType<typeof useSessionIds>;
  history: PromptHistory | undefined;
  onExit: (() => void) | undefined;
  t: TranscriptState;
  setT: (update: (s: TranscriptState) => TranscriptState) => void;
  width: number;
  redraw: () => void;
  clearScreen: () => void;
  /** Feeds agent events into the transcript until the stream ends. */
  stream: (events: AsyncIterable<AgentEvent>) => Promise<void>;
  notice: (level: "info" | "warn" | "error", text: string) => void;
  /** Set once quitting began: nothing new starts. */
  exitingRef: { current: boolean };
  setExiting: (exiting: boolean) => void;
  setEnded: (ended: boolean) => void;
  setHooksChanged: (changed: boolean) => void;
}

/** Runs a sent prompt: a slash command, or a turn of the agent. */
export function startPrompt(f: Flow, text: string): void {
  f.setT((s) => pushEntries(s, { kind: "user", text }));
  const inv = parseSlash(text);
  const b = f.session.live();
  if (inv) {
    f.tasks.run(async (signal) => {
      const { runSlashCommand } = await import("./commands.js");
      await runSlashCommand(inv, { backend: b, io: slashIO(f, signal) });
    });
    return;
  }
  f.tasks.run((signal) => f.stream(b.agent().runTurn(text, { signal })));
}

/** The prompt's Enter: runs the text now, or queues it behind what has to happen first. */
export function submitPrompt(f: Flow, text: string): void {
  if (text.trim() === "" || f.exitingRef.current) return;
  f.history?.append(text);
  // Sent before the session is open or while the trust question waits: it runs once the
  // session has started, like type-ahead.
  if (f.tasks.taskRef.current || !f.session.backendRef.current || f.approvals.trustRef.current) {
    f.tasks.enqueue(text);
    return;
  }
  startPrompt(f, text);
}

/** A task ended: the session's facts are read again and the next queued prompt runs. */
export function afterTask(f: Flow): void {
  if (f.exitingRef.current) return;
  refreshSessionInfo(f);
  const next = f.tasks.next();
  if (next !== undefined) startPrompt(f, next);
}

/** Disk reads happen between tasks, never per rendered frame. */
function refreshSessionInfo(f: Flow): void {
  f.session
    .live()
    .agent()
    .hooks.changedOnDisk()
    .then(f.setHooksChanged, () => {});
  f.sessionIds.stale();
}

/** What a slash command may do to the screen and the session. */
function slashIO(f: Flow, signal: AbortSignal): SlashIO {
  return {
    print: (block) => f.setT((s) => pushEntries(s, { kind: "info", ...block })),
    notice: f.notice,
    stream: f.stream,
    signal,
    exit: () => void quitSession(f, "exit"),
    clearScreen: f.clearScreen,
    lastReasoning: () => f.t.lastReasoning,
    agentChanged: () => f.setT(rebaseCost),
    showHistory: (note) => showHistory(f, note),
    askTrust: () => void f.approvals.askTrust(f.session.live()),
    announceHookProblems: () => announceHookProblems(f),
    columns: f.width,
    pick: (title, choices) => f.picker.pick(title, choices, signal),
  };
}

function announceHookProblems(f: Flow): void {
  const lines = hookProblemLines(f.session.live().agent().hooks.listing(), {
    projectDir: f.session.opening.projectDir,
  });
  for (const text of lines) f.notice("warn", text);
}

/**
 * A resumed conversation is shown, not just continued: its last turns, then where it stands.
 * Static entries are drawn once: the renderer must be loaded before they are, or the resumed
 * answers stay raw Markdown (at start-up it is otherwise loaded only after the session opens).
 */
async function showHistory(f: Flow, note?: string): Promise<void> {
  const [{ replayEntries }] = await Promise.all([import("./replay.js"), loadMarkdown()]);
  const agent = f.session.live().agent();
  const bytes = agent.transcript();
  f.setT((s) =>
    pushEntries(s, ...replayEntries(bytes), {
      kind: "notice",
      level: "info",
      text: `${note ?? `resumed session ${agent.sessionId.slice(0, 8)}`} · ${plural(bytes.length, "message")}`,
    }),
  );
}

/** Quits: the open question is denied, the task stopped, SessionEnd runs, then Ink exits. */
export async function quitSession(f: Flow, reason: "exit" | "other"): Promise<void> {
  if (f.exitingRef.current) return;
  f.exitingRef.current = true;
  f.setExiting(true);
  f.approvals.pendingRef.current?.answer("deny");
  const running = f.tasks.taskRef.current;
  if (running) {
    running.controller.abort();
    await Promise.race([running.done, new Promise((r) => setTimeout(r, 3000).unref())]);
  }
  const { opening, backendRef } = f.session;
  try {
    // Quitting while the session opens ends it once open; one that failed to open has no end.
    if (!backendRef.current) opening.cancel?.();
    const b = backendRef.current ?? (await opening.ready.then((o) => o.backend).catch(() => null));
    if (b) await f.stream(b.agent().end(reason));
  } catch (err) {
    f.notice("error", `SessionEnd: ${err instanceof Error ? err.message : String(err)}`);
  }
  f.onExit?.();
  f.setEnded(true);
}

/**
 * The session is open: what start-up shows, then SessionStart (after the trust question, if
 * one is asked), then the prompts sent meanwhile.
 */
export async function sessionOpened(f: Flow, opened: OpenedBackend): Promise<void> {
  const b = opened.backend;
  f.session.open(b);
  if (f.exitingRef.current) return;
  f.session.applyEarlyMode(b);
  for (const text of opened.notices ?? []) f.notice("warn", text);
  refreshSessionInfo(f);
  announceHookProblems(f);
  if (b.agent().transcript().length > 0) await showHistory(f);
  if (await f.approvals.askTrust(b)) return;
  f.tasks.run((s) => f.stream(b.agent().start({ signal: s })));
}

/** The trust question's answer; SessionStart follows either way. */
export function answerTrust(f: Flow, yes: boolean): void {
  const subject = trustSubject(f.approvals.trust ?? []);
  f.approvals.closeTrust();
  f.redraw();
  f.tasks.run(async (signal) => {
    const backend = f.session.live();
    if (yes) {
      const { acceptProjectTrust } = await import("./trust.js");
      await acceptProjectTrust(backend, subject, f.notice);
    } else {
      f.notice("warn", `continuing without the project's ${subject} (/hooks trust to enable them)`);
    }
    // Idempotent: after a /hooks reload the session has started already and nothing fires.
    await f.stream(backend.agent().start({ signal }));
  });
}
