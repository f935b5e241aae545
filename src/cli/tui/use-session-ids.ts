/**
 * Session ids for /resume completion. Listing sessions reads every stored session of the project,
 * so it happens only while /resume is being typed, at most once between two tasks (`stale()`
 * marks the list old), never at a turn's end or at start-up.
 */
import { useEffect, useRef, useState } from "react";
import type { TuiBackend, TuiSessionSummary } from "./backend.js";
import { clip } from "./format.js";
import { sanitizeLine } from "./sanitize.js";
import type { ArgChoice } from "./slash.js";

/**
 * What /resume offers: other sessions (resuming the one you are in does nothing) that hold a
 * prompt (one quit before its first prompt has nothing to resume; `keel sessions` hides those
 * too), newest first, each with its date and first prompt so the right one can be picked
 * without /sessions.
 */
export function resumeChoices(
  sessions: readonly TuiSessionSummary[],
  currentId: string,
  limit = 10,
): ArgChoice[] {
  return sessions
    .filter((s) => s.id !== currentId && s.messages > 0)
    .slice(0, limit)
    .map((s) => {
      const when = s.updatedAt.slice(0, 16).replace("T", " ");
      const prompt = clip(sanitizeLine(s.title ?? s.firstPrompt), 60);
      return { value: s.id.slice(0, 8), description: prompt ? `${when} · ${prompt}` : when };
    });
}

/** The choices for /resume (8-character id prefixes) and a way to mark them out of date. */
export function useSessionIds(
  backend: TuiBackend | null,
  promptText: string,
): { ids: ArgChoice[]; stale: () => void } {
  const [ids, setIds] = useState<ArgChoice[]>([]);
  const isStale = useRef(true);
  useEffect(() => {
    if (!backend || !isStale.current || !/^\/res/i.test(promptText)) return;
    isStale.current = false;
    try {
      setIds(resumeChoices(backend.sessions(), backend.agent().sessionId));
    } catch {
      // A sessions directory that cannot be read only costs completion candidates.
    }
  }, [promptText, backend]);
  return {
    ids,
    stale: () => {
      isStale.current = true;
    },
  };
}
