/**
 * The interactive session: transcript (finished entries in <Static>, the streaming tail live),
 * prompts, spinner and status line. It consumes the agent's event stream and runs slash
 * commands; every decision about the session itself is the agent's.
 *
 * The backend may still be opening when the App mounts: the prompt takes typing at once, a
 * prompt sent meanwhile waits in the queue, and the trust question, hook problems and the
 * session start follow when the agent is ready. What only an open session needs (slash
 * commands, trust, replay) is imported then, so the first frame does not wait for it.
 *
 * The parts have their own files: the opening session and its mode (use-session-backend.ts),
 * the permission and trust questions (use-approvals.ts), the running task and the prompts
 * queued behind it (use-task-queue.ts), the keys (use-key-handling.ts), a command's picker
 * (use-picker.ts) and what is drawn (components/app-frame.tsx). This file wires them to the
 * session; `useSessionFlow` below is its life: open, prompts, trust answer, quit.
 */
import { useApp, useStdout, useWindowSize } from "ink";
import { useEffect, useMemo, useRef, useState } from "react";
import type { AgentEvent } from "../../agent/index.js";
import { plural } from "../format/text.js";
import type { TuiBackend } from "./backend.js";
import type { SlashIO } from "./commands.js";
import { AppFrame } from "./components/app-frame.js";
import { trustSubject } from "./components/trust-prompt.js";
import { type EditorState, emptyEditor } from "./editor.js";
import type { PromptHistory } from "./history.js";
import { hookProblemLines } from "./hook-problems.js";
import { loadMarkdown } from "./markdown-loader.js";
import type { PermissionBridge } from "./permission-bridge.js";
import { parseSlash } from "./slash.js";
import type { StatusCommand } from "./status-command.js";
import {
  applyEvent,
  approvalWait,
  initialTranscript,
  pushEntries,
  rebaseCost,
  type TranscriptState,
} from "./transcript.js";
import { useApprovals } from "./use-approvals.js";
import { useKeyHandling } from "./use-key-handling.js";
import { usePicker } from "./use-picker.js";
import { useRedrawOnResize } from "./use-redraw-on-resize.js";
import {
  type OpenedBackend,
  type OpeningBackend,
  useSessionBackend,
} from "./use-session-backend.js";
import { useSessionIds } from "./use-session-ids.js";
import { useSessionStatusLine } from "./use-status-command.js";
import { useTaskQueue } from "./use-task-queue.js";

export type { OpenedBackend, OpeningBackend } from "./use-session-backend.js";

/** Props of {@link App}. */
export interface AppProps {
  backend: TuiBackend | OpeningBackend;
  permissions: PermissionBridge;
  /** Called once, after SessionEnd, when the UI is about to unmount. */
  onExit?: () => void;
  /** Aborting it ends the session and quits (SIGTERM, SIGHUP). */
  quitSignal?: AbortSignal;
  home?: string;
  /** Shown once at start (e.g. warnings from reading a resumed session). */
  initialNotices?: readonly string[];
  /** Window for the second Ctrl+C that exits (default 2000 ms). */
  doubleCtrlCMs?: number;
  /** Prompts of earlier runs for ↑, and where new ones are remembered. */
  history?: PromptHistory;
  /** The user's `statusLine` command (status-command.ts); its line shows above Keel's. */
  statusCommand?: StatusCommand | null;
  /** The environment the status command starts from (built into a child's by child-env.ts). */
  statusEnv?: NodeJS.ProcessEnv;
}

const CLEAR_SCREEN = "\x1b[2J\x1b[3J\x1b[H";

/** The whole TUI. */
export function App(props: AppProps) {
  const session = useSessionBackend(props.backend);
  const { opening, backend } = session;
  const { stdout } = useStdout();
  const { columns, rows } = useWindowSize();
  const width = Math.max(20, columns);
  const [t, setT] = useState<TranscriptState>(() =>
    (props.initialNotices ?? []).reduce(
      (s, text) => pushEntries(s, { kind: "notice", level: "warn", text }),
      initialTranscript(),
    ),
  );
  const [editor, setEditor] = useState<EditorState>(() => emptyEditor(props.history?.load() ?? []));
  const [staticKey, setStaticKey] = useState(0);
  const sessionIds = useSessionIds(backend, editor.text);
  const customStatus = useSessionStatusLine(
    props.statusCommand ?? null,
    backend,
    t,
    opening.projectDir,
  );
  const dynamicArgs = useMemo(
    () => ({ model: backend?.models() ?? [], resume: sessionIds.ids }),
    [backend, sessionIds.ids],
  );

  // The whole transcript printed again from the top (Ink's <Static> under a new key).
  const redraw = () => {
    stdout.write(CLEAR_SCREEN);
    setStaticKey((k) => k + 1);
  };
  useRedrawOnResize(columns, redraw);
  const clearScreen = () => {
    stdout.write(CLEAR_SCREEN);
    setT((s) => ({ ...initialTranscript({ expandReasoning: s.expandReasoning }), seq: s.seq }));
    setStaticKey((k) => k + 1);
  };

  const flow = useSessionFlow({ props, session, t, setT, width, redraw, clearScreen, sessionIds });
  const { approvals, tasks, picker, exiting } = flow;
  const keys = useKeyHandling({
    doubleMs: props.doubleCtrlCMs ?? 2000,
    editor,
    setEditor,
    questionOpen: () => approvals.pendingRef.current !== null,
    taskRunning: () => tasks.taskRef.current !== null,
    pickerOpen: () => picker.pickerRef.current,
    stopTask: () => {
      approvals.pendingRef.current?.answer("deny");
      return tasks.abort();
    },
    quit: () => void flow.quit("exit"),
    cycleMode: session.cycleMode,
    toggleReasoning: () => setT((s) => ({ ...s, expandReasoning: !s.expandReasoning })),
  });
  flow.onTaskEnded.current = keys.taskEnded;

  const { pending, pendingArmed, trust, trustArmed } = approvals;
  const { task } = tasks;
  const questionShown = (trust && trustArmed) || (pending && pendingArmed) || picker.picker;
  return (
    <AppFrame
      t={t}
      width={width}
      staticKey={staticKey}
      {...(props.home ? { home: props.home } : {})}
      status={{
        t,
        width,
        customStatus,
        model: backend ? backend.model() : opening.model,
        mode: session.mode(),
        hooksChanged: flow.hooksChanged,
      }}
      ended={flow.ended}
      live={{
        t,
        width,
        rows,
        pending,
        armed: pending ? pendingArmed : trustArmed,
        trust: trust
          ? { hooks: trust, projectDir: opening.projectDir, onAnswer: flow.answerTrust }
          : null,
        taskStartedAt: picker.picker ? null : (task?.startedAt ?? null),
        exiting,
        projectDir: opening.projectDir,
        opening: !backend ? flow.openingLabel : null,
        ...(props.home ? { home: props.home } : {}),
      }}
      queued={tasks.queued}
      picker={picker.picker}
      prompt={
        questionShown || exiting
          ? null
          : {
              editor,
              onChange: setEditor,
              onSubmit: flow.submit,
              width,
              isActive: !exiting,
              busy: task !== null,
              placeholder: task ? "type ahead; Enter queues it" : "ask Keel, or /help",
              dynamicArgs,
              maxRows: Math.max(3, rows - 8),
            }
      }
      busy={task !== null}
      hint={keys.hint}
    />
  );
}

/** What {@link useSessionFlow} works with: the App's props, session, transcript and screen. */
interface FlowContext {
  props: AppProps;
  session: ReturnType<typeof useSessionBackend>;
  t: TranscriptState;
  setT: (update: (s: TranscriptState) => TranscriptState) => void;
  width: number;
  redraw: () => void;
  clearScreen: () => void;
  sessionIds: ReturnType<typeof useSessionIds>;
}

/**
 * The session's life: it opens (what start-up shows, the trust question, SessionStart, the
 * prompts sent meanwhile), runs prompts and slash commands one at a time, answers the trust
 * question, and quits (SessionEnd, then Ink exits).
 */
function useSessionFlow(c: FlowContext) {
  const { props, session, setT } = c;
  const { opening, live } = session;
  const { exit: inkExit } = useApp();
  const [exiting, setExiting] = useState(false);
  const exitingRef = useRef(false);
  // Set once SessionEnd has run: the last frame is drawn without prompt or spinner, then Ink exits.
  const [ended, setEnded] = useState(false);
  const [hooksChanged, setHooksChanged] = useState(false);
  // The MCP servers the opening session waits for, and since when (shown until it opens).
  const [waitingFor, setWaitingFor] = useState<{ names: readonly string[]; since: number } | null>(
    null,
  );
  // Set by the App once the keys are handled: "interrupting…" changes when a task ends.
  const onTaskEnded = useRef<() => void>(() => {});

  useEffect(() => {
    if (ended) inkExit();
  }, [ended, inkExit]);

  const layout = useRef({ textWidth: c.width - 2 });
  layout.current = { textWidth: c.width - 2 };
  const apply = (ev: AgentEvent) => setT((s) => applyEvent(s, ev, Date.now(), layout.current));
  const stream = async (events: AsyncIterable<AgentEvent>) => {
    for await (const ev of events) apply(ev);
  };
  const notice = (level: "info" | "warn" | "error", text: string) =>
    setT((s) => pushEntries(s, { kind: "notice", level, text }));

  const approvals = useApprovals(props.permissions, {
    redraw: c.redraw,
    // The time a question waits for the user is not the tool's (its card's duration).
    waiting: (open, at) => setT((s) => approvalWait(s, open, at)),
  });
  const picker = usePicker();
  const tasks = useTaskQueue(
    (message) => notice("error", message),
    () => {
      onTaskEnded.current();
      afterTask();
    },
  );

  const afterTask = () => {
    if (exitingRef.current) return;
    refreshSessionInfo();
    const next = tasks.next();
    if (next !== undefined) start(next);
  };

  // Disk reads happen between tasks, never per rendered frame.
  const refreshSessionInfo = () => {
    live()
      .agent()
      .hooks.changedOnDisk()
      .then(setHooksChanged, () => {});
    c.sessionIds.stale();
  };

  const io = (signal: AbortSignal): SlashIO => ({
    print: (block) => setT((s) => pushEntries(s, { kind: "info", ...block })),
    notice,
    stream,
    signal,
    exit: () => void quit("exit"),
    clearScreen: c.clearScreen,
    lastReasoning: () => c.t.lastReasoning,
    agentChanged: () => setT(rebaseCost),
    showHistory,
    askTrust: () => void approvals.askTrust(live()),
    announceHookProblems,
    columns: c.width,
    pick: (title, choices) => picker.pick(title, choices, signal),
  });

  const announceHookProblems = () => {
    const lines = hookProblemLines(live().agent().hooks.listing(), {
      projectDir: opening.projectDir,
    });
    for (const text of lines) notice("warn", text);
  };

  // A resumed conversation is shown, not just continued: its last turns, then where it stands.
  // Static entries are drawn once: the renderer must be loaded before they are, or the resumed
  // answers stay raw Markdown (at start-up it is otherwise loaded only after the session opens).
  const showHistory = async (note?: string) => {
    const [{ replayEntries }] = await Promise.all([import("./replay.js"), loadMarkdown()]);
    const agent = live().agent();
    const bytes = agent.transcript();
    setT((s) =>
      pushEntries(s, ...replayEntries(bytes), {
        kind: "notice",
        level: "info",
        text: `${note ?? `resumed session ${agent.sessionId.slice(0, 8)}`} · ${plural(bytes.length, "message")}`,
      }),
    );
  };

  const start = (text: string) => {
    setT((s) => pushEntries(s, { kind: "user", text }));
    const inv = parseSlash(text);
    const b = live();
    if (inv) {
      return tasks.run(async (signal) => {
        const { runSlashCommand } = await import("./commands.js");
        await runSlashCommand(inv, { backend: b, io: io(signal) });
      });
    }
    tasks.run((signal) => stream(b.agent().runTurn(text, { signal })));
  };

  const submit = (text: string) => {
    if (text.trim() === "" || exitingRef.current) return;
    props.history?.append(text);
    // Sent before the session is open or while the trust question waits: it runs once the
    // session has started, like type-ahead.
    if (tasks.taskRef.current || !session.backendRef.current || approvals.trustRef.current) {
      tasks.enqueue(text);
      return;
    }
    start(text);
  };

  const quit = async (reason: "exit" | "other") => {
    if (exitingRef.current) return;
    exitingRef.current = true;
    setExiting(true);
    approvals.pendingRef.current?.answer("deny");
    const running = tasks.taskRef.current;
    if (running) {
      running.controller.abort();
      await Promise.race([running.done, new Promise((r) => setTimeout(r, 3000).unref())]);
    }
    try {
      // Quitting while the session opens ends it once open; one that failed to open has no end.
      if (!session.backendRef.current) opening.cancel?.();
      const b =
        session.backendRef.current ??
        (await opening.ready.then((o) => o.backend).catch(() => null));
      if (b) await stream(b.agent().end(reason));
    } catch (err) {
      notice("error", `SessionEnd: ${err instanceof Error ? err.message : String(err)}`);
    }
    props.onExit?.();
    setEnded(true);
  };

  // Mount-only: the session starts once, the quit signal is wired once.
  // biome-ignore lint/correctness/useExhaustiveDependencies: mount-only effect
  useEffect(() => {
    const signal = props.quitSignal;
    const onQuit = () => void quit("other");
    signal?.addEventListener("abort", onQuit, { once: true });
    const stopWaiting = opening.waiting?.((names) =>
      setWaitingFor((w) => (names.length > 0 ? { names, since: w?.since ?? Date.now() } : null)),
    );
    opening.ready.then(
      (opened) =>
        void onOpen(opened).catch((err: unknown) =>
          notice("error", err instanceof Error ? err.message : String(err)),
        ),
      (err) => inkExit(err instanceof Error ? err : new Error(String(err))),
    );
    return () => {
      stopWaiting?.();
      signal?.removeEventListener("abort", onQuit);
    };
  }, []);

  // The session is open: what start-up shows, then SessionStart (after the trust question, if
  // one is asked), then the prompts sent meanwhile.
  const onOpen = async (opened: OpenedBackend) => {
    const b = opened.backend;
    session.open(b);
    if (exitingRef.current) return;
    session.applyEarlyMode(b);
    for (const text of opened.notices ?? []) notice("warn", text);
    refreshSessionInfo();
    announceHookProblems();
    if (b.agent().transcript().length > 0) await showHistory();
    if (await approvals.askTrust(b)) return;
    tasks.run((s) => stream(b.agent().start({ signal: s })));
  };

  const answerTrust = (yes: boolean) => {
    const subject = trustSubject(approvals.trust ?? []);
    approvals.closeTrust();
    c.redraw();
    tasks.run(async (signal) => {
      const backend = live();
      if (yes) {
        const { acceptProjectTrust } = await import("./trust.js");
        await acceptProjectTrust(backend, subject, notice);
      } else {
        notice("warn", `continuing without the project's ${subject} (/hooks trust to enable them)`);
      }
      // Idempotent: after a /hooks reload the session has started already and nothing fires.
      await stream(backend.agent().start({ signal }));
    });
  };

  const openingLabel = waitingFor
    ? {
        label: `starting MCP server${waitingFor.names.length === 1 ? "" : "s"} ${waitingFor.names.join(", ")}`,
        since: waitingFor.since,
      }
    : null;
  return {
    approvals,
    tasks,
    picker,
    exiting,
    ended,
    hooksChanged,
    openingLabel,
    onTaskEnded,
    submit,
    quit,
    answerTrust,
  };
}
