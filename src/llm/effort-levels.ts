/**
 * The effort levels, apart from effort.ts: config.json's check reads them before the TUI's
 * first frame, and effort.ts loads the model table (and zod with it).
 */

/** Every level Keel knows, lowest first: Claude Code's (low … max) and Codex's (none, minimal). */
export const EFFORT_LEVELS = ["none", "minimal", "low", "medium", "high", "xhigh", "max"] as const;

/** One effort level. */
export type EffortLevel = (typeof EFFORT_LEVELS)[number];

/** Whether `value` names an effort level. */
export function isEffortLevel(value: string): value is EffortLevel {
  return (EFFORT_LEVELS as readonly string[]).includes(value);
}
