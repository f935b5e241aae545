/**
 * The App's session: the transcript's feed (events, notices), the questions, the task queue and
 * the picker, wired to the steps of session-flow.ts; and, once on mount, the quit signal, the
 * MCP servers the opening waits for, and the session's opening.
 */
import { useApp } from "ink";
import { useEffect, useRef, useState } from "react";
import type { AgentEvent } from "../../agent/index.js";
import type { EditorState } from "./editor.js";
import type { PermissionBridge } from "./permission-bridge.js";
import {
  afterTask,
  answerTrust,
  type Flow,
  quitSession,
  sessionOpened,
  submitPrompt,
} from "./session-flow.js";
import { applyEvent, approvalWait, pushEntries, type TranscriptState } from "./transcript.js";
import { useApprovals } from "./use-approvals.js";
import { type KeyTargets, useKeyHandling } from "./use-key-handling.js";
import { usePicker } from "./use-picker.js";
import type { useSessionBackend } from "./use-session-backend.js";
import type { useSessionIds } from "./use-session-ids.js";
import { useTaskQueue } from "./use-task-queue.js";

/** What the App hands over. */
export interface FlowContext {
  permissions: PermissionBridge;
  quitSignal: AbortSignal | undefined;
  history: Flow["history"];
  onExit: Flow["onExit"];
  /** Window for the second Ctrl+C that exits. */
  doubleCtrlCMs: number;
  session: ReturnType<typeof useSessionBackend>;
  t: TranscriptState;
  setT: Flow["setT"];
  editor: EditorState;
  setEditor: KeyTargets["setEditor"];
  width: number;
  redraw: () => void;
  clearScreen: () => void;
  sessionIds: ReturnType<typeof useSessionIds>;
}

/** The session's state for the frame, and the App's ways into its life. */
export function useSessionFlow(c: FlowContext) {
  const { setT } = c;
  const { exit: inkExit } = useApp();
  const [exiting, setExiting] = useState(false);
  const exitingRef = useRef(false);
  // Set once SessionEnd has run: the last frame is drawn without prompt or spinner, then Ink exits.
  const [ended, setEnded] = useState(false);
  const [hooksChanged, setHooksChanged] = useState(false);
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

  const approvals = useApprovals(c.permissions, {
    redraw: c.redraw,
    // The time a question waits for the user is not the tool's (its card's duration).
    waiting: (open, at) => setT((s) => approvalWait(s, open, at)),
  });
  const picker = usePicker();
  const tasks = useTaskQueue(
    (message) => notice("error", message),
    () => {
      keys.taskEnded();
      afterTask(flow);
    },
  );
  const flow: Flow = {
    ...c,
    approvals,
    tasks,
    picker,
    stream,
    notice,
    exitingRef,
    setExiting,
    setEnded,
    setHooksChanged,
  };
  const keys = useKeyHandling({
    doubleMs: c.doubleCtrlCMs,
    editor: c.editor,
    setEditor: c.setEditor,
    questionOpen: () => approvals.pendingRef.current !== null,
    taskRunning: () => tasks.taskRef.current !== null,
    pickerOpen: () => picker.pickerRef.current,
    stopTask: () => {
      approvals.pendingRef.current?.answer("deny");
      return tasks.abort();
    },
    quit: () => void quitSession(flow, "exit"),
    cycleMode: c.session.cycleMode,
    toggleReasoning: () => setT((s) => ({ ...s, expandReasoning: !s.expandReasoning })),
  });

  const openingLabel = useOpening(flow, c.quitSignal, inkExit);
  return {
    approvals,
    tasks,
    picker,
    exiting,
    ended,
    hooksChanged,
    openingLabel,
    hint: keys.hint,
    submit: (text: string) => submitPrompt(flow, text),
    quit: (reason: "exit" | "other") => quitSession(flow, reason),
    answerTrust: (yes: boolean) => answerTrust(flow, yes),
  };
}

/**
 * Mount-only: the quit signal is wired once and the session opens once. Returns what the
 * opening still waits for (MCP servers starting, and since when), shown until it opens.
 */
function useOpening(
  flow: Flow,
  quitSignal: AbortSignal | undefined,
  inkExit: (error?: Error) => void,
): { label: string; since: number } | null {
  const { opening } = flow.session;
  const [waitingFor, setWaitingFor] = useState<{ names: readonly string[]; since: number } | null>(
    null,
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: mount-only effect
  useEffect(() => {
    const onQuit = () => void quitSession(flow, "other");
    quitSignal?.addEventListener("abort", onQuit, { once: true });
    const stopWaiting = opening.waiting?.((names) =>
      setWaitingFor((w) => (names.length > 0 ? { names, since: w?.since ?? Date.now() } : null)),
    );
    opening.ready.then(
      (opened) =>
        void sessionOpened(flow, opened).catch((err: unknown) =>
          flow.notice("error", err instanceof Error ? err.message : String(err)),
        ),
      (err) => inkExit(err instanceof Error ? err : new Error(String(err))),
    );
    return () => {
      stopWaiting?.();
      quitSignal?.removeEventListener("abort", onQuit);
    };
  }, []);
  if (!waitingFor) return null;
  const servers = `MCP server${waitingFor.names.length === 1 ? "" : "s"}`;
  return { label: `starting ${servers} ${waitingFor.names.join(", ")}`, since: waitingFor.since };
}
