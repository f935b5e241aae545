/**
 * Path policy shared by the file tools. Paths are relative to the project directory. Every
 * file tool — read or write — is confined to the project (after resolving symlinks), plus any
 * `extraReadDirs` for the read tools: read tools need no approval, so letting them roam the disk
 * would let the model send `~/.ssh` to the provider unasked. The shell tool is the escape hatch,
 * and it goes through permissions.
 */
import { realpathSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";

/** A path the tool may use, or a message for the model saying why not. */
export type ResolvedPath = { ok: true; abs: string; rel: string } | { ok: false; error: string };

/** Resolves `input` against the project and refuses anything that lands outside the allowed roots. */
export function resolveInProject(opts: {
  tool: string;
  cwd: string;
  input: string;
  access: "read" | "write";
  extraReadDirs?: readonly string[];
}): ResolvedPath {
  const { tool, cwd, input } = opts;
  if (input.includes("\0")) return { ok: false, error: `${tool}: the path contains a NUL byte.` };
  const abs = isAbsolute(input) ? resolve(input) : resolve(cwd, input);
  const roots = [cwd, ...(opts.access === "read" ? (opts.extraReadDirs ?? []) : [])];
  const real = realpathOfNearest(abs);
  for (const root of roots) {
    const realRoot = realpathOfNearest(resolve(root));
    if (isInside(realRoot, real)) {
      return { ok: true, abs, rel: displayPath(cwd, abs) };
    }
  }
  const verb = opts.access === "write" ? "written" : "read";
  return {
    ok: false,
    error: `${tool}: ${input} is outside the project directory ${cwd}; only files inside the project can be ${verb}.`,
  };
}

/** The path as shown to the model and matched by hook conditions: project-relative, `/`-separated. */
export function displayPath(cwd: string, path: string): string {
  const abs = isAbsolute(path) ? resolve(path) : resolve(cwd, path);
  const rel = relative(cwd, abs);
  if (rel === "") return ".";
  if (rel.startsWith("..") || isAbsolute(rel)) return abs;
  return rel.split(sep).join("/");
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

// A file being created does not exist yet: resolve the deepest existing ancestor, so a symlinked
// directory inside the project that points outside is still caught.
function realpathOfNearest(abs: string): string {
  let current = abs;
  const rest: string[] = [];
  for (;;) {
    try {
      return resolve(realpathSync(current), ...rest.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return abs;
      rest.push(current.slice(parent.length).replace(/^[/\\]/, ""));
      current = parent;
    }
  }
}
