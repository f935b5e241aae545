/**
 * The interactive session: transcript (finished entries in <Static>, the streaming tail live),
 * prompts, spinner and status line. It consumes the agent's event stream and runs slash
 * commands; every decision about the session itself is the agent's.
 *
 * The backend may still be opening when the App mounts: the prompt takes typing at once, a
 * prompt sent meanwhile waits in the queue, and the trust question, hook problems and the
 * session start follow when the agent is ready. What only an open session needs (slash
 * commands, trust, replay) is imported then, so the first frame does not wait for it.
 */
import { Box, Static, Text, useApp, useInput, useStdout, useWindowSize } from "ink";
import { useEffect, useMemo, useRef, useState } from "react";
import type { AgentEvent, PermissionMode } from "../../agent/index.js";
import { plural } from "../format/text.js";
import type { TuiBackend } from "./backend.js";
import type { SlashIO } from "./commands.js";
import { EntryView } from "./components/entry-view.js";
import { LiveArea } from "./components/live-area.js";
import { PickList, type PickRequest } from "./components/pick-list.js";
import { PromptInput } from "./components/prompt-input.js";
import { QueuedPrompts } from "./components/queued-prompts.js";
import { StatusLine } from "./components/status-line.js";
import { trustSubject, type UntrustedHook } from "./components/trust-prompt.js";
import { type EditorState, emptyEditor } from "./editor.js";
import type { PromptHistory } from "./history.js";
import { hookProblemLines } from "./hook-problems.js";
import { loadMarkdown } from "./markdown-loader.js";
import type { PendingPermission, PermissionBridge } from "./permission-bridge.js";
import { parseSlash } from "./slash.js";
import type { StatusCommand } from "./status-command.js";
import {
  applyEvent,
  approvalWait,
  hitRatio,
  initialTranscript,
  pushEntries,
  rebaseCost,
  type TranscriptState,
} from "./transcript.js";
import { ARM_DELAY_MS, armAfter } from "./use-armed.js";
import { useRedrawOnResize } from "./use-redraw-on-resize.js";
import { useSessionIds } from "./use-session-ids.js";
import { statusPayloadFor, useStatusCommand } from "./use-status-command.js";

/** A backend once open, with notices to show first (e.g. warnings from reading a resumed session). */
export interface OpenedBackend {
  backend: TuiBackend;
  notices?: readonly string[];
}

/** A session still opening: what the first frame shows, and the backend when it is ready. */
export interface OpeningBackend {
  readonly projectDir: string;
  readonly model: string;
  readonly mode: PermissionMode;
  /** Rejects when the session cannot be opened: the App exits with that error. */
  readonly ready: Promise<OpenedBackend>;
  /** Called when the user quits before `ready`: opening stops waiting for what only delays it
   *  (MCP servers still starting), so quitting does not wait out their start-up deadline. */
  readonly cancel?: () => void;
  /** Subscribes to the MCP servers the opening still waits for ([] when none); returns the
   *  unsubscribe. */
  readonly waiting?: (listener: (names: readonly string[]) => void) => () => void;
}

function isOpening(b: TuiBackend | OpeningBackend): b is OpeningBackend {
  return "ready" in b;
}

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
  const { permissions } = props;
  const opening = useMemo(
    (): OpeningBackend =>
      isOpening(props.backend)
        ? props.backend
        : {
            projectDir: props.backend.projectDir,
            model: props.backend.model(),
            mode: props.backend.agent().getPermissionMode(),
            ready: Promise.resolve({ backend: props.backend }),
          },
    [props.backend],
  );
  // Null until the session is open; `live()` is for code that only runs after that.
  const [backend, setBackend] = useState<TuiBackend | null>(null);
  const backendRef = useRef<TuiBackend | null>(null);
  const live = (): TuiBackend => {
    if (!backendRef.current) throw new Error("the session is still opening");
    return backendRef.current;
  };
  // Shift+Tab before the session is open: the mode the agent gets when it is.
  const earlyModeRef = useRef<PermissionMode>(opening.mode);
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
  const [trust, setTrust] = useState<UntrustedHook[] | null>(null);
  // The trust and permission questions take keys only once armed (use-armed.ts); until then
  // what is typed goes on into the prompt, so type-ahead is queued, not dropped.
  const [trustArmed, setTrustArmed] = useState(false);
  const [pendingArmed, setPendingArmed] = useState(false);
  const trustRef = useRef(false);
  // One arming timer per question: a new question restarts it, an old one cannot arm it early.
  const armTimers = useRef<{ trust?: () => void; pending?: () => void }>({});
  const arm = (which: "trust" | "pending", set: (armed: boolean) => void) => {
    armTimers.current[which]?.();
    set(false);
    armTimers.current[which] = armAfter(ARM_DELAY_MS, () => set(true));
  };
  // A slash command's question (/resume's session picker): it takes the keys while shown.
  const [picker, setPicker] = useState<PickRequest | null>(null);
  const pickerRef = useRef(false);
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
  // The MCP servers the opening session waits for, and since when (shown until it opens).
  const [waitingFor, setWaitingFor] = useState<{ names: readonly string[]; since: number } | null>(
    null,
  );
  const sessionIds = useSessionIds(backend, editor.text);
  const startedAt = useRef(Date.now());
  // Rebuilt when a reply's usage lands or the agent changes (/model, /resume), not per key.
  // biome-ignore lint/correctness/useExhaustiveDependencies: t.session and t.done.length are the triggers
  const statusInput = useMemo(
    () => (props.statusCommand ? statusPayloadFor(backend, t, startedAt.current) : null),
    [props.statusCommand, backend, t.session, t.done.length],
  );
  const customStatus = useStatusCommand(
    props.statusCommand ?? null,
    statusInput,
    opening.projectDir,
  );
  const dynamicArgs = useMemo(
    () => ({ model: backend?.models() ?? [], resume: sessionIds.ids }),
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

  // The whole transcript printed again from the top (Ink's <Static> under a new key).
  const redraw = () => {
    stdout.write(CLEAR_SCREEN);
    setStaticKey((k) => k + 1);
  };
  useRedrawOnResize(columns, redraw);

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
    live()
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
    askTrust: () => void askTrust(live()),
    announceHookProblems,
    columns: width,
    pick: (title, choices) =>
      new Promise((resolve) => {
        const done = (value: string | null) => {
          if (!pickerRef.current) return;
          pickerRef.current = false;
          setPicker(null);
          resolve(value);
        };
        // Ctrl+C (or quitting) while it is open cancels it.
        if (signal.aborted) return resolve(null);
        signal.addEventListener("abort", () => done(null), { once: true });
        pickerRef.current = true;
        setPicker({ title, choices, onDone: done });
      }),
  });

  const announceHookProblems = () => {
    const lines = hookProblemLines(live().agent().hooks.listing(), {
      projectDir: opening.projectDir,
    });
    for (const text of lines) notice("warn", text);
  };

  /** Shows the trust question when project hooks or MCP servers wait for it; true if shown. */
  const askTrust = async (b: TuiBackend): Promise<boolean> => {
    const { untrustedHooks } = await import("./trust.js");
    const untrusted = untrustedHooks(b.agent().hooks, b.projectDir, b.agent().mcp);
    trustRef.current = untrusted !== null;
    if (untrusted !== null) arm("trust", setTrustArmed);
    setTrust(untrusted);
    return untrusted !== null;
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
      return runTask(async (signal) => {
        const { runSlashCommand } = await import("./commands.js");
        await runSlashCommand(inv, { backend: b, io: io(signal) });
      });
    }
    runTask((signal) => stream(b.agent().runTurn(text, { signal })));
  };

  const submit = (text: string) => {
    if (text.trim() === "" || exitingRef.current) return;
    props.history?.append(text);
    // Sent before the session is open or while the trust question waits: it runs once the
    // session has started, like type-ahead.
    if (taskRef.current || !backendRef.current || trustRef.current) {
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
      // Quitting while the session opens ends it once open; one that failed to open has no end.
      if (!backendRef.current) opening.cancel?.();
      const b =
        backendRef.current ?? (await opening.ready.then((o) => o.backend).catch(() => null));
      if (b) await stream(b.agent().end(reason));
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
      const fresh = p !== null && pendingRef.current === null;
      // A question's box (up to a screen tall) scrolled the transcript up; when it closes the
      // frame shrinks and would leave that many blank rows at the bottom of the screen, with
      // the transcript's last lines above the top. Printing the transcript again fills them.
      if (p === null && pendingRef.current !== null) redraw();
      pendingRef.current = p;
      setPending(p);
      if (fresh) arm("pending", setPendingArmed);
      // The time a question waits for the user is not the tool's (its card's duration).
      const at = Date.now();
      setT((s) => approvalWait(s, p !== null, at));
    });
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
      unsubscribe();
      stopWaiting?.();
      signal?.removeEventListener("abort", onQuit);
    };
  }, []);

  // The session is open: what start-up shows, then SessionStart (after the trust question, if
  // one is asked), then the prompts sent meanwhile.
  const onOpen = async (opened: OpenedBackend) => {
    const b = opened.backend;
    backendRef.current = b;
    setBackend(b);
    if (exitingRef.current) return;
    if (earlyModeRef.current !== b.agent().getPermissionMode()) {
      b.agent().setPermissionMode(earlyModeRef.current);
    }
    for (const text of opened.notices ?? []) notice("warn", text);
    refreshSessionInfo();
    announceHookProblems();
    if (b.agent().transcript().length > 0) await showHistory();
    if (await askTrust(b)) return;
    runTask((s) => stream(b.agent().start({ signal: s })));
  };

  const answerTrust = (yes: boolean) => {
    const subject = trustSubject(trust ?? []);
    trustRef.current = false;
    setTrust(null);
    redraw();
    runTask(async (signal) => {
      const backend = live();
      const hooks = backend.agent().hooks;
      if (yes) {
        await hooks.trust();
        await hooks.reload();
        notice("info", `project ${subject} trusted`);
        // MCP servers are trusted with the hooks; the newly trusted ones start now.
        if (
          backend
            .agent()
            .mcp?.statuses()
            .some((s) => s.state === "untrusted")
        ) {
          const [{ runMcpSlash }, { keelHomeDir }] = await Promise.all([
            import("./mcp-command.js"),
            import("../paths.js"),
          ]);
          await runMcpSlash(["trust"], {
            mcp: backend.agent().mcp,
            projectDir: backend.projectDir,
            keelHome: keelHomeDir(),
            io: { print: () => {}, notice },
          });
        }
      } else {
        notice("warn", `continuing without the project's ${subject} (/hooks trust to enable them)`);
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
    const agent = backendRef.current?.agent();
    const order: PermissionMode[] = ["default", "acceptEdits", "plan"];
    const current = agent ? agent.getPermissionMode() : earlyModeRef.current;
    const next = order[(order.indexOf(current) + 1) % order.length] ?? "default";
    if (agent) agent.setPermissionMode(next);
    else earlyModeRef.current = next;
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
    // Esc in a picker cancels the picker (it handles the key), not the command behind it.
    if (key.escape && taskRef.current && !pendingRef.current && !pickerRef.current) {
      return interruptTask();
    }
    if (key.ctrl && input === "d" && editor.text === "" && !taskRef.current)
      return void quit("exit");
  });

  const status = (
    <Box flexDirection="column" width={width}>
      {customStatus !== null ? <Text wrap="truncate-end">{customStatus}</Text> : null}
      <StatusLine
        model={backend ? backend.model() : opening.model}
        mode={backend ? backend.agent().getPermissionMode() : earlyModeRef.current}
        turnHitRatio={hitRatio(t.turn)}
        sessionHitRatio={hitRatio(t.session)}
        sessionCostUsd={t.session.costUsd}
        width={width}
        {...(hooksChanged ? { note: "hooks changed on disk: /hooks reload" } : {})}
      />
    </Box>
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
          armed={pending ? pendingArmed : trustArmed}
          trust={
            trust ? { hooks: trust, projectDir: opening.projectDir, onAnswer: answerTrust } : null
          }
          taskStartedAt={picker ? null : (task?.startedAt ?? null)}
          exiting={exiting}
          projectDir={opening.projectDir}
          opening={
            !backend && waitingFor
              ? {
                  label: `starting MCP server${waitingFor.names.length === 1 ? "" : "s"} ${waitingFor.names.join(", ")}`,
                  since: waitingFor.since,
                }
              : null
          }
          {...(props.home ? { home: props.home } : {})}
        />
        <QueuedPrompts prompts={queued} width={width} />
        {picker ? <PickList request={picker} width={width} /> : null}
        {(trust && trustArmed) || (pending && pendingArmed) || picker || exiting ? null : (
          <Box marginTop={task ? 0 : 1}>
            <PromptInput
              editor={editor}
              onChange={setEditor}
              onSubmit={submit}
              width={width}
              isActive={!exiting}
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
