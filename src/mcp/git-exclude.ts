/**
 * Keeping a personal settings file out of commits. `keel mcp add` writes `-e TOKEN=…` into
 * `.keel/settings.local.json` inside the repository; without an ignore rule `git add -A` would
 * commit it. The rule goes into the clone's own `.git/info/exclude` (git's place for personal,
 * per-clone ignore rules, as Claude Code keeps its settings.local.json out): nothing in the work
 * tree changes, nothing is pushed, and a `.gitignore` the team owns is left alone.
 *
 * git itself is not run: `.git` (a directory, or a file naming one, as in worktrees and
 * submodules) is found by walking up, so a repository's config has no say in it.
 */
import { appendFile, mkdir, readFile, stat } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";

/** A `.git` file is a line or two (`gitdir: …`); anything larger is not one. */
const MAX_DOT_GIT_FILE = 4096;

/** What `excludeFromGit` did. */
export type ExcludeResult =
  | { state: "added" | "present"; excludeFile: string }
  | { state: "not-git" }
  | { state: "failed"; excludeFile: string; error: string };

/** The work tree holding `start` and the git directory its `info/exclude` is read from. */
export async function findGitDirs(
  start: string,
): Promise<{ workTree: string; commonDir: string } | null> {
  let dir = resolve(start);
  for (;;) {
    const dotGit = join(dir, ".git");
    const info = await stat(dotGit).catch(() => null);
    if (info?.isDirectory()) return { workTree: dir, commonDir: dotGit };
    if (info?.isFile() && info.size <= MAX_DOT_GIT_FILE) {
      const text = await readFile(dotGit, "utf8").catch(() => "");
      const named = /^gitdir:[ \t]*(.+?)[ \t]*$/m.exec(text)?.[1];
      if (named === undefined) return null;
      const gitDir = resolve(dir, named);
      // A linked worktree's git directory names the shared one, whose info/exclude git reads.
      const common = await readFile(join(gitDir, "commondir"), "utf8").then(
        (t) => resolve(gitDir, t.trim()),
        () => gitDir,
      );
      return { workTree: dir, commonDir: common };
    }
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** Ensures `file` (inside a git work tree) is listed in that clone's `info/exclude`. Never throws. */
export async function excludeFromGit(file: string): Promise<ExcludeResult> {
  const git = await findGitDirs(dirname(file));
  if (!git) return { state: "not-git" };
  const rel = relative(git.workTree, file).split(sep).join("/");
  if (rel === "" || rel.startsWith("../")) return { state: "not-git" };
  // Anchored to the work tree root: only this file, not one of the same name elsewhere.
  const pattern = `/${escapePattern(rel)}`;
  const excludeFile = join(git.commonDir, "info", "exclude");
  try {
    const current = await readFile(excludeFile, "utf8").catch((err: NodeJS.ErrnoException) => {
      if (err.code === "ENOENT") return "";
      throw err;
    });
    if (current.split(/\r?\n/).includes(pattern)) return { state: "present", excludeFile };
    await mkdir(dirname(excludeFile), { recursive: true });
    const lead = current === "" || current.endsWith("\n") ? "" : "\n";
    await appendFile(
      excludeFile,
      `${lead}# Keel's personal settings (keel mcp add): may hold tokens, never committed\n${pattern}\n`,
    );
    return { state: "added", excludeFile };
  } catch (err) {
    return {
      state: "failed",
      excludeFile,
      error: err instanceof Error ? err.message : String(err),
    };
  }
}

/** A path as a gitignore pattern matching only itself (glob characters and `\` escaped). */
function escapePattern(path: string): string {
  return path.replace(/[\\*?[\]]/g, "\\$&").replace(/ $/, "\\ ");
}
