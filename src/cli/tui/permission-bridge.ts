/**
 * Connects the agent's `askPermission` callback (created before the UI mounts) to the prompt the
 * UI shows. One request at a time; an aborted turn or an unmounted UI answers "deny".
 */
import type { PermissionAnswer, PermissionPrompt } from "../../agent/events.js";
import type { AskPermission } from "../../agent/types.js";

/** A request waiting for the user. */
export interface PendingPermission {
  request: PermissionPrompt;
  answer: (a: PermissionAnswer) => void;
}

/** The agent side (`ask`) and the UI side (`subscribe`) of permission prompts. */
export interface PermissionBridge {
  /** Must not throw: resolves "deny" when no UI listens or the turn is aborted. */
  ask: AskPermission;
  /** The UI's listener gets the pending request, or null when it was answered. */
  subscribe(listener: (pending: PendingPermission | null) => void): () => void;
}

/** Creates a bridge. */
export function createPermissionBridge(): PermissionBridge {
  let listener: ((pending: PendingPermission | null) => void) | null = null;
  let current: PendingPermission | null = null;
  return {
    ask: (request, { signal }) =>
      new Promise<PermissionAnswer>((resolve) => {
        if (!listener || signal.aborted) return resolve("deny");
        let settled = false;
        const pending: PendingPermission = {
          request,
          answer: (a) => {
            if (settled) return;
            settled = true;
            signal.removeEventListener("abort", onAbort);
            if (current === pending) current = null;
            listener?.(current);
            resolve(a);
          },
        };
        const onAbort = () => pending.answer("deny");
        signal.addEventListener("abort", onAbort, { once: true });
        current = pending;
        listener(pending);
      }),
    subscribe(fn) {
      listener = fn;
      fn(current);
      return () => {
        if (listener === fn) listener = null;
        current?.answer("deny");
      };
    },
  };
}
