/**
 * Whether files a project defines really live in the folder they were found in, links resolved.
 * A clone may link `.claude/agents/x.md` or a skill's SKILL.md to a file anywhere (KEEL_HOME, the
 * user's home): without this check that file's text would become a prompt sent to the model
 * (attacks3/11, 32). Links that stay inside the folder are fine. The user's own folders are not
 * checked: a user may link anywhere.
 */
import { realpathSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";

/** Whether every one of `paths` (links resolved) is strictly inside `root` (links resolved).
 *  False when any of them cannot be resolved. */
export function linksStayInside(root: string, ...paths: string[]): boolean {
  try {
    const realRoot = realpathSync(root);
    return paths.every((p) => {
      const rel = relative(realRoot, realpathSync(p));
      return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
    });
  } catch {
    return false;
  }
}

/** Whether `dir` is really where it appears under `parent`: no link on the way from `parent` to
 *  it (`.claude/agents -> ~/.keel/notes` would make every file "inside" it a file of KEEL_HOME). */
export function folderIsWhereItAppears(parent: string, dir: string): boolean {
  try {
    return realpathSync(dir) === join(realpathSync(parent), relative(parent, dir));
  } catch {
    return false;
  }
}
