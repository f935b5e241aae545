/**
 * Path policy shared by the file tools. Paths are relative to the project directory. Every
 * file tool — read or write — is confined to the project (after resolving symlinks, dangling
 * ones included), plus any
 * `extraReadDirs` for the read tools: read tools need no approval, so letting them roam the disk
 * would let the model send `~/.ssh` to the provider unasked. The shell tool is the escape hatch,
 * and it goes through permissions.
 */
import { isAbsolute, relative, resolve, sep } from "node:path";
import { finalPath } from "../base/index.js";

// One function follows links for every layer (hooks' path conditions too): base/final-path.ts.
export { finalPath };

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
  if (insideRoots(abs, roots)) return { ok: true, abs, rel: displayPath(cwd, abs) };
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

/** Whether the final path of `abs` lies inside one of `roots` (each resolved the same way). */
export function insideRoots(abs: string, roots: readonly string[]): boolean {
  const real = finalPath(abs);
  return roots.some((root) => isInside(finalPath(resolve(root)), real));
}
