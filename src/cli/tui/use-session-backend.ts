/**
 * The session the App shows, which may still be opening when the App mounts: what the first
 * frame can show at once (project, model, mode) and the backend once it is ready. The permission
 * mode lives in the agent; a Shift+Tab before the session is open is kept here and handed to the
 * agent when it is.
 */
import { useMemo, useRef, useState } from "react";
import type { PermissionMode } from "../../agent/index.js";
import type { TuiBackend } from "./backend.js";

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

// Shift+Tab steps through the modes people switch between while working; bypass is never
// one keypress away (it takes /mode bypassPermissions).
const MODE_CYCLE: PermissionMode[] = ["default", "acceptEdits", "plan"];

/** The opening session, the backend once open (null until then), and its permission mode. */
export function useSessionBackend(given: TuiBackend | OpeningBackend) {
  const opening = useMemo(
    (): OpeningBackend =>
      isOpening(given)
        ? given
        : {
            projectDir: given.projectDir,
            model: given.model(),
            mode: given.agent().getPermissionMode(),
            ready: Promise.resolve({ backend: given }),
          },
    [given],
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
  // The mode lives in the agent; this re-renders the status line after Shift+Tab changed it.
  const [, setModeTick] = useState(0);

  /** The session is open: it is `live()` from now on, with the mode chosen while it opened. */
  const open = (b: TuiBackend) => {
    backendRef.current = b;
    setBackend(b);
  };
  const applyEarlyMode = (b: TuiBackend) => {
    if (earlyModeRef.current !== b.agent().getPermissionMode()) {
      b.agent().setPermissionMode(earlyModeRef.current);
    }
  };
  const mode = (): PermissionMode =>
    backend ? backend.agent().getPermissionMode() : earlyModeRef.current;
  const cycleMode = () => {
    const agent = backendRef.current?.agent();
    const current = agent ? agent.getPermissionMode() : earlyModeRef.current;
    const next = MODE_CYCLE[(MODE_CYCLE.indexOf(current) + 1) % MODE_CYCLE.length] ?? "default";
    if (agent) agent.setPermissionMode(next);
    else earlyModeRef.current = next;
    setModeTick((n) => n + 1);
  };
  return { opening, backend, backendRef, live, open, applyEarlyMode, mode, cycleMode };
}
