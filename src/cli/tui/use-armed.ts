/**
 * Whether a question that just appeared may take answers yet. Prompts pop up while the user may
 * be typing ahead (Enter queues a prompt): without a short pause, the Enter or the "y"/"a" of a
 * sentence being typed would approve a tool call or trust a project's hooks.
 */
import { useEffect, useState } from "react";

/**
 * Calls `onArmed` once `ms` have passed, but only after the keys already waiting in the terminal
 * have been read: the timer's callback runs in the event loop's timers phase, before the poll
 * phase reads stdin, so arming at once would hand keys typed within the pause (and delivered
 * late: a busy machine, a process held up) to the question. Arming in the check phase, after
 * that poll, leaves them to the prompt as type-ahead. Returns a cancel function.
 */
export function armAfter(ms: number, onArmed: () => void): () => void {
  let immediate: NodeJS.Immediate | undefined;
  const timer = setTimeout(() => {
    immediate = setImmediate(onArmed);
  }, ms);
  return () => {
    clearTimeout(timer);
    if (immediate) clearImmediate(immediate);
  };
}

/** False for the first `ms` milliseconds after mount (see {@link armAfter}), then true. */
export function useArmed(ms: number): boolean {
  const [armed, setArmed] = useState(ms <= 0);
  useEffect(() => {
    if (ms <= 0) return;
    return armAfter(ms, () => setArmed(true));
  }, [ms]);
  return armed;
}

/** How long a permission or trust prompt ignores keys after it appears. */
export const ARM_DELAY_MS = 400;
