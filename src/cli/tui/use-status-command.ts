/**
 * Keeps the user's status command's line current: it runs again when what it is told changes
 * (a reply, the cost, the model), at most once every 300 ms as in Claude Code, one run at a
 * time — a change during a run is picked up by one more run after it, never by a second process
 * beside it. Unmounting cancels a run still going.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { VERSION } from "../../version.js";
import type { TuiBackend } from "./backend.js";
import { runStatusCommand, type StatusCommand, statusPayload } from "./status-command.js";
import type { TranscriptState } from "./transcript.js";

/** The shortest gap between two runs. */
export const STATUS_THROTTLE_MS = 300;

/** The status command's current line (null: none configured, or it printed nothing). */
export function useStatusCommand(
  cmd: StatusCommand | null,
  payload: string | null,
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): string | null {
  const [line, setLine] = useState<string | null>(null);
  const state = useRef({ running: false, wanted: null as string | null, lastStart: 0 });
  const controller = useRef<AbortController | null>(null);
  const timer = useRef<NodeJS.Timeout | undefined>(undefined);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      clearTimeout(timer.current);
      controller.current?.abort();
    };
  }, []);

  useEffect(() => {
    if (!cmd || payload === null) return;
    const s = state.current;
    s.wanted = payload;
    const start = (): void => {
      if (s.running || s.wanted === null || !mounted.current) return;
      const wait = s.lastStart + STATUS_THROTTLE_MS - Date.now();
      if (wait > 0) {
        clearTimeout(timer.current);
        timer.current = setTimeout(start, wait);
        return;
      }
      const input = s.wanted;
      s.wanted = null;
      s.running = true;
      s.lastStart = Date.now();
      const abort = new AbortController();
      controller.current = abort;
      void runStatusCommand(cmd, input, { cwd, env, signal: abort.signal }).then((out) => {
        s.running = false;
        if (!mounted.current) return;
        setLine(out);
        start();
      });
    };
    start();
  }, [cmd, payload, cwd, env]);

  return cmd ? line : null;
}

/** The payload for the session as it stands (null until the session is open). */
export function statusPayloadFor(
  backend: TuiBackend | null,
  t: Pick<TranscriptState, "session">,
  startedAt: number,
): string | null {
  if (!backend) return null;
  const agent = backend.agent();
  return statusPayload({
    sessionId: agent.sessionId,
    transcriptPath: agent.transcriptPath ?? "",
    projectDir: backend.projectDir,
    model: backend.model(),
    version: VERSION,
    costUsd: t.session.costUsd,
    durationMs: Date.now() - startedAt,
    inputTokens: t.session.hitTokens + t.session.missTokens,
    outputTokens: t.session.completionTokens,
  });
}

/**
 * The user's status line for the App's session: what the command is told is rebuilt when a
 * reply's usage lands or the agent changes (/model, /resume), not per key.
 */
export function useSessionStatusLine(
  cmd: StatusCommand | null,
  backend: TuiBackend | null,
  t: TranscriptState,
  cwd: string,
  env?: NodeJS.ProcessEnv,
): string | null {
  const startedAt = useRef(Date.now());
  // biome-ignore lint/correctness/useExhaustiveDependencies: t.session and t.done.length are the triggers
  const payload = useMemo(
    () => (cmd ? statusPayloadFor(backend, t, startedAt.current) : null),
    [cmd, backend, t.session, t.done.length],
  );
  return useStatusCommand(cmd, payload, cwd, env);
}
