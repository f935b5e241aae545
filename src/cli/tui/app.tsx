/**
 * The interactive session: transcript (finished entries in <Static>, the streaming tail live),
 * prompts, spinner and status line. It consumes the agent's event stream and runs slash
 * commands; every decision about the session itself is the agent's.
 */
import { Box, Static, Text, useApp, useInput, useStdout, useWindowSize } from "ink";
import { useEffect, useMemo, useRef, useState } from "react";
import type { AgentEvent } from "../../agent/events.js";
import type { PermissionMode } from "../../agent/permissions.js";
import { keelHomeDir } from "../commands/hooks-shared.js";
import { plural } from "../format/text.js";
import type { TuiBackend } from "./backend.js";
import { runSlashCommand, type SlashIO } from "./commands.js";
import { EntryView } from "./components/entry-view.js";
import { LiveArea } from "./components/live-area.js";
import { PromptInput } from "./components/prompt-input.js";
import { QueuedPrompts } from "./components/queued-prompts.js";
import { StatusLine } from "./components/status-line.js";
import { type EditorState, emptyEditor } from "./editor.js";
import type { PromptHistory } from "./history.js";
import { hookProblemLines } from "./hook-problems.js";
import { runMcpSlash } from "./mcp-command.js";
import type { PendingPermission, PermissionBridge } from "./permission-bridge.js";
import { replayEntries } from "./replay.js";
import { parseSlash } from "./slash.js";
import {
  applyEvent,
  hitRatio,
  initialTranscript,
  pushEntries,
  rebaseCost,
  type TranscriptState,
} from "./transcript.js";
import { untrustedHooks } from "./trust.js";
import { useRedrawOnResize } from "./use-redraw-on-resize.js";
import { useSessionIds } from "./use-session-ids.js";

/** Props of {@link App}. */
export interface AppProps {
  backend: TuiBackend;
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
}

interface Task {
  controller: AbortController;
  done: Promise<void>;
  startedAt: number;
}

const CLEAR_SCREEN = "\x1b[2J\x1b[3J\x1b[H";
const INTERRUPTING = "interrupting… (Ctrl+C again to exit)";
const AGAIN_TO_EXIT = "Press Ctrl+C again to exit";

/** The whole TUI. */
export function App(props: AppProps) {
  const { backend, permissions } = props;
  const { exit: inkExit } = useApp();
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
  const [pending, setPending] = useState<PendingPermission | null>(null);
  const [trust, setTrust] = useState(() =>
    untrustedHooks(backend.agent().hooks, backend.projectDir, backend.agent().mcp),
  );
  const [task, setTask] = useState<Task | null>(null);
  const [hint, setHint] = useState<string | null>(null);
  const [exiting, setExiting] = useState(false);
  // Set once SessionEnd has run: the last frame is drawn without prompt or spinner, then Ink exits.
  const [ended, setEnded] = useState(false);
  const [queued, setQueued] = useState<readonly string[]>([]);
  // The mode lives in the agent; this re-renders the status line after Shift+Tab changed it.
  const [, setModeTick] = useState(0);
  const [staticKey, setStaticKey] = useState(0);
  const [hooksChanged, setHooksChanged] = useState(false);
  const sessionIds = useSessionIds(backend, editor.text);
  const dynamicArgs = useMemo(
    () => ({ model: backend.models(), resume: sessionIds.ids }),
    [backend, sessionIds.ids],
  );
  const taskRef = useRef<Task | null>(null);
  const pendingRef = useRef<PendingPermission | null>(null);
  const queue = useRef<string[]>([]);
  const lastCtrlC = useRef(0);
  const exitingRef = useRef(false);
  const doubleMs = props.doubleCtrlCMs ?? 2000;

  // The Ctrl+C hint means "a second press exits", which is only true inside the window.
  useEffect(() => {
    if (hint === null) return;
    const timer = setTimeout(() => setHint(null), doubleMs);
    return () => clearTimeout(timer);
  }, [hint, doubleMs]);

  useEffect(() => {
    if (ended) inkExit();
  }, [ended, inkExit]);

  useRedrawOnResize(columns, () => {
    stdout.write(CLEAR_SCREEN);
    setStaticKey((k) => k + 1);
  });

  const layout = useRef({ textWidth: width - 2 });
  layout.current = { textWidth: width - 2 };
  const apply = (ev: AgentEvent) => setT((s) => applyEvent(s, ev, Date.now(), layout.current));
  const stream = async (events: AsyncIterable<AgentEvent>) => {
    for await (const ev of events) apply(ev);
  };
  const notice = (level: "info" | "warn" | "error", text: string) =>
    setT((s) => pushEntries(s, { kind: "notice", level, text }));

  const runTask = (body: (signal: AbortSignal) => Promise<void>) => {
    const controller = new AbortController();
    const entry: Task = { controller, done: Promise.resolve(), startedAt: Date.now() };
    entry.done = (async () => {
      try {
        await body(controller.signal);
      } catch (err) {
        notice("error", err instanceof Error ? err.message : String(err));
      } finally {
        taskRef.current = null;
        setTask(null);
        setHint((h) => (h === INTERRUPTING ? AGAIN_TO_EXIT : h));
        afterTask();
      }
    })();
    taskRef.current = entry;
    setTask(entry);
  };

  const afterTask = () => {
    if (exitingRef.current) return;
    refreshSessionInfo();
    const next = queue.current.shift();
    setQueued([...queue.current]);
    if (next !== undefined) start(next);
  };

  // Disk reads happen between tasks, never per rendered frame.
  const refreshSessionInfo = () => {
    backend
      .agent()
      .hooks.changedOnDisk()
      .then(setHooksChanged, () => {});
    sessionIds.stale();
  };

  const io = (signal: AbortSignal): SlashIO => ({
    print: (block) => setT((s) => pushEntries(s, { kind: "info", ...block })),
    notice,
    stream,
    signal,
    exit: () => void quit("exit"),
    clearScreen: () => {
      stdout.write(CLEAR_SCREEN);
      setT((s) => ({ ...initialTranscript({ expandReasoning: s.expandReasoning }), seq: s.seq }));
      setStaticKey((k) => k + 1);
    },
    lastReasoning: () => t.lastReasoning,
    agentChanged: () => setT(rebaseCost),
    showHistory,
    askTrust: () =>
      setTrust(untrustedHooks(backend.agent().hooks, backend.projectDir, backend.agent().mcp)),
    announceHookProblems,
    columns: width,
  });

  const announceHookProblems = () => {
    const lines = hookProblemLines(backend.agent().hooks.listing(), {
      projectDir: backend.projectDir,
    });
    for (const text of lines) notice("warn", text);
  };

  // A resumed conversation is shown, not just continued: its last turns, then where it stands.
  const showHistory = () => {
    const agent = backend.agent();
    const bytes = agent.transcript();
    setT((s) =>
      pushEntries(s, ...replayEntries(bytes), {
        kind: "notice",
        level: "info",
        text: `resumed session ${agent.sessionId.slice(0, 8)} · ${plural(bytes.length, "message")}`,
      }),
    );
  };

  const start = (text: string) => {
    setT((s) => pushEntries(s, { kind: "user", text }));
    const inv = parseSlash(text);
    if (inv) return runTask((signal) => runSlashCommand(inv, { backend, io: io(signal) }));
    runTask((signal) => stream(backend.agent().runTurn(text, { signal })));
  };

  const submit = (text: string) => {
    if (text.trim() === "" || exitingRef.current) return;
    props.history?.append(text);
    if (taskRef.current) {
      queue.current.push(text);
      setQueued([...queue.current]);
      return;
    }
    start(text);
  };

  const quit = async (reason: "exit" | "other") => {
    if (exitingRef.current) return;
    exitingRef.current = true;
    setExiting(true);
    pendingRef.current?.answer("deny");
    const running = taskRef.current;
    if (running) {
      running.controller.abort();
      await Promise.race([running.done, new Promise((r) => setTimeout(r, 3000).unref())]);
    }
    try {
      await stream(backend.agent().end(reason));
    } catch (err) {
      notice("error", `SessionEnd: ${err instanceof Error ? err.message : String(err)}`);
    }
    props.onExit?.();
    setEnded(true);
  };

  // Mount-only: the session starts once, the bridge and the quit signal are wired once.
  // biome-ignore lint/correctness/useExhaustiveDependencies: mount-only effect
  useEffect(() => {
    const unsubscribe = permissions.subscribe((p) => {
      pendingRef.current = p;
      setPending(p);
    });
    const signal = props.quitSignal;
    const onQuit = () => void quit("other");
    signal?.addEventListener("abort", onQuit, { once: true });
    refreshSessionInfo();
    announceHookProblems();
    if (backend.agent().transcript().length > 0) showHistory();
    if (!trust) runTask((s) => stream(backend.agent().start({ signal: s })));
    return () => {
      unsubscribe();
      signal?.removeEventListener("abort", onQuit);
    };
  }, []);

  const answerTrust = (yes: boolean) => {
    setTrust(null);
    runTask(async (signal) => {
      const hooks = backend.agent().hooks;
      if (yes) {
        await hooks.trust();
        await hooks.reload();
        notice("info", "project hooks trusted");
        // MCP servers are trusted with the hooks; the newly trusted ones start now.
        if (
          backend
            .agent()
            .mcp?.statuses()
            .some((s) => s.state === "untrusted")
        ) {
          await runMcpSlash(["trust"], {
            mcp: backend.agent().mcp,
            projectDir: backend.projectDir,
            keelHome: keelHomeDir(),
            io: { print: () => {}, notice },
          });
        }
      } else {
        notice("warn", "continuing without the project's hooks (/hooks trust to enable them)");
      }
      // Idempotent: after a /hooks reload the session has started already and nothing fires.
      await stream(backend.agent().start({ signal }));
    });
  };

  const interrupt = () => {
    const now = Date.now();
    const quick = now - lastCtrlC.current < doubleMs;
    lastCtrlC.current = now;
    if (pendingRef.current || taskRef.current) {
      if (quick) return void quit("exit");
      interruptTask();
      setHint(INTERRUPTING);
      return;
    }
    if (editor.text !== "") {
      lastCtrlC.current = 0;
      setEditor(emptyEditor(editor.history));
      return;
    }
    if (quick) return void quit("exit");
    setHint(AGAIN_TO_EXIT);
  };

  // Shift+Tab steps through the modes people switch between while working; bypass is never
  // one keypress away (it takes /mode bypassPermissions).
  const cycleMode = () => {
    const agent = backend.agent();
    const order: PermissionMode[] = ["default", "acceptEdits", "plan"];
    const next = order[(order.indexOf(agent.getPermissionMode()) + 1) % order.length] ?? "default";
    agent.setPermissionMode(next);
    setModeTick((n) => n + 1);
  };

  // Prompts queued behind an interrupted turn go back to the prompt: the user stopped the work,
  // so nothing queued runs without being sent again.
  const interruptTask = () => {
    pendingRef.current?.answer("deny");
    taskRef.current?.controller.abort();
    const waiting = queue.current.splice(0);
    if (waiting.length === 0) return;
    setQueued([]);
    setEditor((e) => {
      const text = [...waiting, e.text].filter((x) => x !== "").join("\n");
      return { ...e, text, cursor: text.length, historyIndex: null };
    });
  };

  useInput((input, key) => {
    if (key.ctrl && input === "c") return interrupt();
    // "Twice" means twice in a row: any other key starts the count again.
    lastCtrlC.current = 0;
    if (hint) setHint(null);
    if (key.tab && key.shift && !pendingRef.current) return cycleMode();
    if (key.ctrl && input === "o")
      return setT((s) => ({ ...s, expandReasoning: !s.expandReasoning }));
    if (key.escape && taskRef.current && !pendingRef.current) return interruptTask();
    if (key.ctrl && input === "d" && editor.text === "" && !taskRef.current)
      return void quit("exit");
  });

  const agent = backend.agent();
  const status = (
    <StatusLine
      model={backend.model()}
      mode={agent.getPermissionMode()}
      turnHitRatio={hitRatio(t.turn)}
      sessionHitRatio={hitRatio(t.session)}
      sessionCostUsd={t.session.costUsd}
      width={width}
      {...(hooksChanged ? { note: "hooks changed on disk: /hooks reload" } : {})}
    />
  );
  const transcript = (
    <Static key={staticKey} items={t.done}>
      {(entry) => (
        <EntryView
          key={entry.key}
          entry={entry}
          width={width}
          {...(props.home ? { home: props.home } : {})}
        />
      )}
    </Static>
  );
  if (ended) {
    return (
      <>
        {transcript}
        <Box width={width}>{status}</Box>
      </>
    );
  }
  return (
    <>
      {transcript}
      <Box flexDirection="column" width={width}>
        <LiveArea
          t={t}
          width={width}
          rows={rows}
          pending={pending}
          trust={
            trust ? { hooks: trust, projectDir: backend.projectDir, onAnswer: answerTrust } : null
          }
          taskStartedAt={task?.startedAt ?? null}
          exiting={exiting}
          {...(props.home ? { home: props.home } : {})}
        />
        <QueuedPrompts prompts={queued} width={width} />
        {trust || pending || exiting ? null : (
          <Box marginTop={task ? 0 : 1}>
            <PromptInput
              editor={editor}
              onChange={setEditor}
              onSubmit={submit}
              width={width}
              isActive={!pending && !exiting}
              busy={task !== null}
              placeholder={task ? "type ahead; Enter queues it" : "ask Keel, or /help"}
              dynamicArgs={dynamicArgs}
              maxRows={Math.max(3, rows - 8)}
            />
          </Box>
        )}
        {hint && !exiting ? <Text dimColor>{hint}</Text> : null}
        {status}
      </Box>
    </>
  );
}
