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
 * (use-picker.ts), the session's life (use-session-flow.ts over session-flow.ts: open, prompts,
 * trust answer, quit) and what is drawn (components/app-frame.tsx). This file wires them.
 */
import { useStdout, useWindowSize } from "ink";
import { useMemo, useState } from "react";
import type { TuiBackend } from "./backend.js";
import { AppFrame } from "./components/app-frame.js";
import { type EditorState, emptyEditor } from "./editor.js";
import type { PromptHistory } from "./history.js";
import type { PermissionBridge } from "./permission-bridge.js";
import type { StatusCommand } from "./status-command.js";
import { initialTranscript, pushEntries, type TranscriptState } from "./transcript.js";
import { useRedrawOnResize } from "./use-redraw-on-resize.js";
import { type OpeningBackend, useSessionBackend } from "./use-session-backend.js";
import { useSessionFlow } from "./use-session-flow.js";
import { useSessionIds } from "./use-session-ids.js";
import { useSessionStatusLine } from "./use-status-command.js";

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

/** An empty transcript that starts with `notices` (warnings). */
function withNotices(notices: readonly string[]): TranscriptState {
  return notices.reduce(
    (s, text) => pushEntries(s, { kind: "notice", level: "warn", text }),
    initialTranscript(),
  );
}

/** The whole TUI. */
export function App(props: AppProps) {
  const session = useSessionBackend(props.backend);
  const { opening, backend } = session;
  const { stdout } = useStdout();
  const { columns, rows } = useWindowSize();
  const width = Math.max(20, columns);
  const [t, setT] = useState<TranscriptState>(() => withNotices(props.initialNotices ?? []));
  const [editor, setEditor] = useState<EditorState>(() => emptyEditor(props.history?.load() ?? []));
  const [staticKey, setStaticKey] = useState(0);
  const sessionIds = useSessionIds(backend, editor.text);
  const customStatus = useSessionStatusLine(
    props.statusCommand ?? null,
    backend,
    t,
    opening.projectDir,
    props.statusEnv,
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

  const flow = useSessionFlow({
    permissions: props.permissions,
    quitSignal: props.quitSignal,
    history: props.history,
    onExit: props.onExit,
    doubleCtrlCMs: props.doubleCtrlCMs ?? 2000,
    session,
    t,
    setT,
    editor,
    setEditor,
    width,
    redraw,
    clearScreen,
    sessionIds,
  });
  const { approvals, tasks } = flow;
  return (
    <AppFrame
      t={t}
      width={width}
      rows={rows}
      staticKey={staticKey}
      home={props.home}
      projectDir={opening.projectDir}
      status={{
        customStatus,
        model: backend ? backend.model() : opening.model,
        mode: session.mode(),
        hooksChanged: flow.hooksChanged,
      }}
      ended={flow.ended}
      exiting={flow.exiting}
      questions={{ ...approvals, onTrustAnswer: flow.answerTrust }}
      taskStartedAt={tasks.task?.startedAt ?? null}
      opening={backend ? null : flow.openingLabel}
      queued={tasks.queued}
      picker={flow.picker.picker}
      prompt={{ editor, onChange: setEditor, onSubmit: flow.submit, dynamicArgs }}
      hint={flow.hint}
    />
  );
}
