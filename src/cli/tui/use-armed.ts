/**
 * Whether a question that just appeared may take answers yet. Prompts pop up while the user may
 * be typing ahead (Enter queues a prompt): without a short pause, the Enter or the "y"/"a" of a
 * sentence being typed would approve a tool call or trust a project's hooks.
 */
import { useEffect, useState } from "react";

/** False for the first `ms` milliseconds after mount, then true. */
export function useArmed(ms: number): boolean {
  const [armed, setArmed] = useState(ms <= 0);
  useEffect(() => {
    if (ms <= 0) return;
    const timer = setTimeout(() => setArmed(true), ms);
    return () => clearTimeout(timer);
  }, [ms]);
  return armed;
}

/** How long a permission or trust prompt ignores keys after it appears. */
export const ARM_DELAY_MS = 400;
