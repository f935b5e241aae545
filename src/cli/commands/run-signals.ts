/**
 * How `keel run` stops on a signal. Ctrl+C, a terminal closing and a polite kill (CI timeouts,
 * `timeout`) all end the run the same way: the running tool's process group is killed, the
 * session stays valid and SessionEnd fires. Without this, SIGTERM left detached tool processes
 * running.
 */
import { constants as osConstants } from "node:os";
import { writeStderr } from "../stdout.js";

/** Signals that stop a run gracefully (a second one of the same kind kills at once). */
const STOP_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** How long a stop signal waits for the turn to wind down before Keel exits regardless. */
const STOP_GRACE_MS = 5000;

/** The exit status of a run a signal stopped: 128 + the signal's number. */
export function signalExitStatus(sig: NodeJS.Signals): number {
  return 128 + (osConstants.signals[sig] ?? 0);
}

/** The stop signals' handler while a run is under way. */
export interface StopSignals {
  /** Aborted by the first stop signal; the turn and the MCP start-up watch it. */
  readonly signal: AbortSignal;
  /** The first stop signal that came, or null. */
  signalled(): NodeJS.Signals | null;
  /** Puts the default handling back and cancels a pending forced exit. */
  release(): void;
}

/** Handles the stop signals until `release()`; `session` is closed on a forced exit. */
export function catchStopSignals(session: { close(): void }): StopSignals {
  const controller = new AbortController();
  let signalled: NodeJS.Signals | null = null;
  // A tool or hook that does not heed the abort (a read blocked in the kernel, a hook that
  // traps SIGTERM) must not keep the run alive: after a grace the session is closed and Keel
  // exits with the signal's status anyway. A second signal of the same kind kills at once.
  let watchdog: NodeJS.Timeout | undefined;
  const onSignal = (sig: NodeJS.Signals) => {
    signalled ??= sig;
    controller.abort();
    watchdog ??= setTimeout(() => {
      try {
        session.close();
      } catch {
        // Closing is best effort here: what was appended is on disk already.
      }
      writeStderr(`keel: interrupted (${sig}); a tool did not stop in time\n`);
      process.exit(signalExitStatus(sig));
    }, STOP_GRACE_MS);
    watchdog.unref();
  };
  for (const sig of STOP_SIGNALS) process.once(sig, onSignal);
  return {
    signal: controller.signal,
    signalled: () => signalled,
    release: () => {
      clearTimeout(watchdog);
      for (const sig of STOP_SIGNALS) process.removeListener(sig, onSignal);
    },
  };
}
