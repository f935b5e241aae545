/** Shared helpers for the TUI component tests. */

import { vi } from "vitest";
import type { HookRunRecord } from "../../../src/hooks/types.js";

/** Strips ANSI styling from a rendered frame so assertions read like the screen. */
export function plain(frame: string | undefined): string {
  return (frame ?? "").replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "");
}

/** Polls the latest frame until it satisfies `check` (no fixed sleeps). */
export async function waitForFrame(
  lastFrame: () => string | undefined,
  check: (screen: string) => boolean,
  opts: { timeout?: number } = {},
): Promise<string> {
  let screen = "";
  await vi.waitFor(
    () => {
      screen = plain(lastFrame());
      if (!check(screen)) throw new Error(`frame did not match:\n${screen}`);
    },
    // A deadline, not a delay: generous so a loaded machine only makes it slower, not red.
    { timeout: opts.timeout ?? 15_000, interval: 10 },
  );
  // A frame is written at commit; React runs passive effects (Ink's input subscriptions) in a
  // later task. Yield once so keys typed next reach the components on screen.
  await new Promise((resolve) => setImmediate(resolve));
  return screen;
}

/** A hook run record with sensible defaults. */
export function hookRun(over: Partial<HookRunRecord> = {}): HookRunRecord {
  return {
    hookId: "h1",
    event: "PreToolUse",
    source: "/proj/.keel/settings.json",
    dialect: "keel",
    scope: "project",
    handlerType: "command",
    command: "./scripts/guard.sh",
    outcome: "pass",
    exitCode: 0,
    durationMs: 35,
    stdout: "",
    stderr: "",
    truncated: false,
    message: null,
    startedAt: 0,
    async: false,
    ...over,
  };
}

/** Key sequences as a terminal sends them. */
export const KEY = {
  enter: "\r",
  altEnter: "\x1b\r",
  ctrlJ: "\n",
  up: "\x1b[A",
  down: "\x1b[B",
  left: "\x1b[D",
  right: "\x1b[C",
  tab: "\t",
  escape: "\x1b",
  backspace: "\x7f",
  ctrlC: "\x03",
  ctrlA: "\x01",
  ctrlE: "\x05",
  ctrlU: "\x15",
} as const;
