/**
 * Where a path lands once every link on the way is followed. One function for every layer: the
 * file tools' confinement (tools/paths.ts), permission rules' paths (agent/permissions/rules.ts)
 * and hooks' path conditions (hooks/match.ts) must agree on it.
 */
import { lstatSync, readlinkSync } from "node:fs";
import { dirname, isAbsolute, join, parse, resolve } from "node:path";

/**
 * The path `abs` really names: every symlink on the way followed — dangling ones included, so
 * writing through a link to a file that does not exist yet is judged by where the file would
 * be created. Components that do not exist are kept as written.
 */
export function finalPath(abs: string): string {
  let budget = 40; // like the kernel's ELOOP limit
  let done = parse(abs).root;
  const todo = abs
    .slice(done.length)
    .split(/[/\\]+/)
    .filter((c) => c !== "");
  while (todo.length > 0) {
    const name = todo.shift() ?? "";
    if (name === ".") continue;
    if (name === "..") {
      done = dirname(done);
      continue;
    }
    const next = join(done, name);
    let target: string | undefined;
    try {
      if (lstatSync(next).isSymbolicLink()) target = readlinkSync(next);
    } catch {
      // Does not exist (yet): the rest is taken as written.
      return resolve(next, ...todo);
    }
    if (target === undefined) {
      done = next;
      continue;
    }
    if (--budget < 0) return resolve(next, ...todo);
    const targetAbs = isAbsolute(target) ? target : join(done, target);
    const root = parse(targetAbs).root;
    done = root;
    todo.unshift(
      ...targetAbs
        .slice(root.length)
        .split(/[/\\]+/)
        .filter((c) => c !== ""),
    );
  }
  return done;
}
