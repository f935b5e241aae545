/**
 * The shell's working directory between calls, as Claude Code's Bash tool keeps it: a command
 * that ends in another folder of the project leaves the next call there. The directory is not
 * read from the command's text (`cd "$(…)"`, `pushd`, a function, a sourced script all move it):
 * a wrapper around the command prints `pwd -P` to file descriptor 3, which the command itself
 * runs with closed. Whatever arrives there is only a claim: it counts when it is an existing
 * directory whose real path (links followed) lies inside the project's; anything else — `cd ..`
 * out of the project, a link to a folder outside, a directory removed since — puts the shell back
 * at the project directory, and the model is told so in Claude Code's words.
 */
import { realpathSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";

/**
 * `sh` arguments that run `command` as `sh -c command` would (same `$0`, no positional
 * parameters, the same exit status) and then print the directory it ended in to fd 3. A
 * command that ends the shell itself (`exit`, `set -e` and a failure) reports nothing: the
 * directory stays as it was.
 */
export function cwdReportingArgs(command: string): string[] {
  const wrapper =
    '__keel_command=$1; set --; eval "$__keel_command" 3>&-; __keel_status=$?; pwd -P >&3 2>/dev/null; exit $__keel_status';
  return ["-c", wrapper, "sh", command];
}

/** What Claude Code tells the model when a command left the allowed folders. */
export function cwdResetText(projectDir: string): string {
  return `Shell cwd was reset to ${projectDir}`;
}

/** The directory the wrapper reported (its last line), or undefined for no report. */
export function reportedCwd(text: string): string | undefined {
  const lines = text.split("\n").filter((l) => l !== "");
  return lines.at(-1);
}

/**
 * Where the next call starts: `dir` when it is an existing directory inside the project (as
 * named and where it really is), else the project itself, with `reset` set.
 */
export function checkedCwd(projectDir: string, dir: string): { cwd: string; reset: boolean } {
  const project = resolve(projectDir);
  if (!isAbsolute(dir) || dir.includes("\0")) return { cwd: project, reset: true };
  const named = resolve(dir);
  if (named === project) return { cwd: project, reset: false };
  let real: string;
  let realProject: string;
  try {
    real = realpathSync(named);
    realProject = realpathSync(project);
    if (!statSync(real).isDirectory()) return { cwd: project, reset: true };
  } catch {
    return { cwd: project, reset: true };
  }
  if (real === realProject) return { cwd: project, reset: false };
  if (!inside(realProject, real)) return { cwd: project, reset: true };
  // Kept as the project's own name for it (the project may be named through a link), so that
  // every judge resolving against it and the project agrees on the same tree.
  const underProject = inside(project, named)
    ? named
    : resolve(project, relative(realProject, real));
  return { cwd: underProject, reset: false };
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== "" && rel !== ".." && !rel.startsWith("../") && !isAbsolute(rel);
}
