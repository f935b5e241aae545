/**
 * What a path is, links followed, without throwing: the small checks many readers of project
 * folders need (skills, plugins, trust's reach), in one place.
 */
import { statSync } from "node:fs";
import { isAbsolute, relative, sep } from "node:path";

/** Whether `path` is a directory (false when absent or unreadable). */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}

/** Whether `path` is a regular file (false when absent or unreadable). */
export function isRegularFile(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
  } catch {
    return false;
  }
}

/** Whether `path` is `dir` or inside it (as written: links are not resolved). */
export function isInsideOrAt(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
