/**
 * FileChanged: the files hooks asked to watch, and the firing when one is added, changed or
 * removed. Two ways a file gets watched, as in Claude Code and Qwen Code:
 * - a FileChanged matcher of literal file names (`.envrc|.env`) watches those names in the
 *   project directory from the start of the session;
 * - `watchPaths` (absolute paths) in the output of SessionStart, CwdChanged or FileChanged hooks.
 *
 * Each watched file's directory is watched (not the file): a file an editor replaces by rename,
 * or one created later, is still seen. Bursts are debounced per file. Watchers are unref'd so a
 * headless run still exits, and closed when the session ends. What FileChanged hooks print goes
 * to the user as notices before the next event (never to the model), as in Claude Code.
 */
import { existsSync, type FSWatcher, watch } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import type { HookDecision, HookEngine } from "../hooks/index.js";
import type { AgentEvent } from "./events.js";
import { fireHook, type HookSessionInfo } from "./hook-adapter/fire.js";

/** How long a file must stay quiet before its change fires (editors write in several steps). */
const DEBOUNCE_MS = 100;

export type FileEvent = "add" | "change" | "unlink";

/**
 * The files FileChanged matchers name literally: `a|b` names `a` and `b` in `projectDir`.
 * Empty, `*` and anything with regex or glob characters register nothing (no directory scans).
 */
export function staticWatchPaths(engine: HookEngine, projectDir: string): string[] {
  const out = new Set<string>();
  for (const h of engine.listing().hooks) {
    if (h.event !== "FileChanged" || !h.active || !h.trusted || !h.matcher) continue;
    for (const name of h.matcher.split("|").map((s) => s.trim())) {
      if (name === "" || /[*?[\]()^$\\{}+/]/.test(name)) continue;
      out.add(join(projectDir, name));
    }
  }
  return [...out];
}

/** Watches files by their directories; calls `onEvent` once a file has been quiet a moment. */
export class FileWatcher {
  private readonly dirs = new Map<string, FSWatcher>();
  /** Watched file → whether it existed when last seen. */
  private readonly files = new Map<string, boolean>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly onEvent: (path: string, event: FileEvent) => void,
    private readonly debounceMs = DEBOUNCE_MS,
  ) {}

  /** Starts watching `paths` (absolute; others are ignored). Unwatchable directories are skipped. */
  add(paths: readonly string[]): void {
    if (this.closed) return;
    for (const p of paths) {
      if (!isAbsolute(p)) continue;
      const file = resolve(p);
      if (this.files.has(file)) continue;
      this.files.set(file, existsSync(file));
      this.watchDir(dirname(file));
    }
  }

  /** The files being watched. */
  watched(): string[] {
    return [...this.files.keys()];
  }

  close(): void {
    this.closed = true;
    for (const w of this.dirs.values()) w.close();
    for (const t of this.timers.values()) clearTimeout(t);
    this.dirs.clear();
    this.timers.clear();
  }

  private watchDir(dir: string): void {
    if (this.dirs.has(dir)) return;
    try {
      const w = watch(dir, { persistent: false }, (_kind, name) => {
        if (name) this.touched(join(dir, name.toString()));
      });
      w.on("error", () => {
        w.close();
        this.dirs.delete(dir);
      });
      this.dirs.set(dir, w);
    } catch {
      // A directory that does not exist (yet) or cannot be read: nothing to watch there.
    }
  }

  private touched(file: string): void {
    if (this.closed || !this.files.has(file)) return;
    const pending = this.timers.get(file);
    if (pending) clearTimeout(pending);
    const timer = setTimeout(() => {
      this.timers.delete(file);
      const before = this.files.get(file) ?? false;
      const now = existsSync(file);
      this.files.set(file, now);
      if (!before && !now) return;
      this.onEvent(file, !before ? "add" : !now ? "unlink" : "change");
    }, this.debounceMs);
    timer.unref();
    this.timers.set(file, timer);
  }
}

/** What the session gives the FileChanged firing. */
export interface FileChangedOptions {
  engine: HookEngine;
  info: HookSessionInfo;
  /** Where the firing's events wait for the session's next event. */
  notices: AgentEvent[];
  /** Called after each firing (re-reads CLAUDE_ENV_FILE, which FileChanged hooks may write). */
  afterFiring?: () => Promise<void>;
}

/**
 * Starts the session's FileChanged watcher with the statically named files and the
 * `watchPaths` of the SessionStart decision. Returns null when no hook could ever fire.
 */
export function startFileChanged(o: FileChangedOptions, start: HookDecision): FileWatcher | null {
  const hasHooks = o.engine.listing().hooks.some((h) => h.event === "FileChanged");
  const dynamic = start.extras?.watchPaths ?? [];
  if (!hasHooks && dynamic.length === 0) return null;
  let queue = Promise.resolve();
  const watcher = new FileWatcher((file, event) => {
    // One firing at a time, in the order the changes were seen.
    queue = queue.then(() => fireFileChanged(o, watcher, file, event));
  });
  watcher.add([...staticWatchPaths(o.engine, o.info.projectDir), ...dynamic]);
  return watcher;
}

async function fireFileChanged(
  o: FileChangedOptions,
  watcher: FileWatcher,
  file: string,
  event: FileEvent,
): Promise<void> {
  const firing = fireHook(o.engine, o.info, "FileChanged", { file_path: file, event });
  let step = await firing.next();
  while (!step.done) {
    o.notices.push(step.value);
    step = await firing.next();
  }
  watcher.add(step.value.extras?.watchPaths ?? []);
  await o.afterFiring?.();
}
