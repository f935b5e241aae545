/**
 * Session ids for /resume completion. Listing sessions reads every stored session of the project,
 * so it happens only while /resume is being typed, at most once between two tasks (`stale()`
 * marks the list old), never at a turn's end or at start-up.
 */
import { useEffect, useRef, useState } from "react";
import type { TuiBackend } from "./backend.js";

/** The ids (8-character prefixes, newest first) and a way to mark them out of date. */
export function useSessionIds(
  backend: TuiBackend,
  promptText: string,
): { ids: string[]; stale: () => void } {
  const [ids, setIds] = useState<string[]>([]);
  const isStale = useRef(true);
  useEffect(() => {
    if (!isStale.current || !/^\/res/i.test(promptText)) return;
    isStale.current = false;
    try {
      setIds(
        backend
          .sessions()
          .slice(0, 10)
          .map((s) => s.id.slice(0, 8)),
      );
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
