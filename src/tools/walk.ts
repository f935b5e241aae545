/**
 * A sorted, bounded directory walk for glob and grep: skips node_modules and .git, no symlinked
 * dirs, and symlinked files only when they resolve inside the project.
 */
import { join } from "node:path";
import type { FileOperations } from "./file-operations.js";

/** Directories the search tools skip unless the pattern names them. */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set(["node_modules", ".git"]);

/** One file found by the walk, with its path relative to the walk's root (`/`-separated). */
export interface WalkEntry {
  abs: string;
  rel: string;
}

/** Options of one walk. */
export interface WalkOptions {
  ops: FileOperations;
  root: string;
  signal?: AbortSignal;
  /** Directory names to skip (default SKIPPED_DIRS). */
  skip?: ReadonlySet<string>;
  /**
   * Whether a symlink's final target may be read (the project's roots); links that lead
   * elsewhere are skipped. Without it, no symlink is followed.
   */
  linkAllowed?: (abs: string) => boolean;
  /** Stop after visiting this many files (default 200 000). */
  maxFiles?: number;
}

/** Yields files under `root` depth-first in name order, so results are stable across runs. */
export async function* walkFiles(opts: WalkOptions): AsyncGenerator<WalkEntry> {
  const skip = opts.skip ?? SKIPPED_DIRS;
  const maxFiles = opts.maxFiles ?? 200_000;
  let visited = 0;
  const stack: string[] = [""];
  while (stack.length > 0) {
    if (opts.signal?.aborted) return;
    const relDir = stack.pop() ?? "";
    let entries: Awaited<ReturnType<FileOperations["readdir"]>>;
    try {
      entries = await opts.ops.readdir(relDir ? join(opts.root, relDir) : opts.root);
    } catch {
      continue; // unreadable directory: skip it, the rest of the tree is still useful
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const entry of entries) {
      const rel = relDir ? `${relDir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!skip.has(entry.name)) subdirs.push(rel);
        continue;
      }
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        // Follow symlinks to files only (symlinked directories can form cycles), and only
        // those that stay inside the project: a link out must not send outside files to the model.
        if (!opts.linkAllowed?.(join(opts.root, rel))) continue;
        try {
          isFile = (await opts.ops.stat(join(opts.root, rel))).isFile();
        } catch {
          isFile = false;
        }
      }
      if (!isFile) continue;
      yield { abs: join(opts.root, rel), rel };
      visited += 1;
      if (visited >= maxFiles) return;
    }
    // Reverse so popping visits subdirectories in name order.
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i] ?? "");
  }
}
