/**
 * Starts the interactive TUI with options already checked: from `keel`'s commander action
 * (commands/interactive.ts), and from src/cli/main.ts directly for `keel` alone, the most
 * common start, which so builds no commander program before the first frame.
 */
import type { PermissionMode } from "../../agent/index.js";
import type { EffortLevel } from "../llm-config.js";

/** The options of `keel` as the TUI takes them. */
export interface InteractiveFlags {
  model?: string;
  mode?: PermissionMode;
  effort?: EffortLevel;
  continue: boolean;
  resume?: string;
  cwd?: string;
  harvest: boolean;
  branch?: number;
}

/** Runs the TUI in the project `o.cwd` names (default: the current directory). */
export async function startInteractive(o: InteractiveFlags): Promise<void> {
  // The TUI's modules load while the project directory is checked.
  const tui = import("../tui/run.js");
  void tui.catch(() => {});
  const { keelHomeDir, resolveProjectDir } = await import("../paths.js");
  const projectDir = await resolveProjectDir(o.cwd);
  const { runInteractive } = await tui;
  await runInteractive({
    keelHome: keelHomeDir(),
    projectDir,
    ...(o.model !== undefined ? { model: o.model } : {}),
    ...(o.mode !== undefined ? { mode: o.mode } : {}),
    ...(o.effort !== undefined ? { effort: o.effort } : {}),
    ...(o.resume !== undefined ? { resume: o.resume } : {}),
    continueLatest: o.continue,
    ...(o.harvest ? { harvest: true } : {}),
    ...(o.branch !== undefined ? { branch: o.branch } : {}),
  });
}
