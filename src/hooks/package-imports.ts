/**
 * Node's subpath imports (`import "#cfg"`): the nearest package.json above the importing file
 * maps the name in its "imports" field (`"#cfg": "./hooks/cfg.mjs"`, conditions nested). That
 * package.json is pinned (and, where none is yet, every place one could be created up to the
 * project), and each target the mapping names: a relative one as Node resolves it, a bare one
 * as the package it loads. A pattern key (`"#lib/*"`) maps names Keel does not expand: the
 * importing file's folder cannot be pinned (source-imports.ts's `dynamic`).
 */
import { dirname, join, relative, sep } from "node:path";
import { readConfig } from "./runner-config.js";

export function subpathImport(
  dir: string,
  spec: string,
  projectDir: string,
  /** How Node resolves a relative target from a folder (source-imports.ts's jsResolve). */
  jsResolve: (dir: string, spec: string) => string[],
): { files: string[]; packages: string[]; dynamic: string[] } {
  const out = { files: [] as string[], packages: [] as string[], dynamic: [] as string[] };
  for (let at = dir; ; at = dirname(at)) {
    const file = join(at, "package.json");
    out.files.push(file);
    const text = readConfig(file);
    if (typeof text === "string") {
      let imports: unknown;
      try {
        imports = (JSON.parse(text) as { imports?: unknown }).imports;
      } catch {
        return out; // Node refuses it too.
      }
      if (imports === null || typeof imports !== "object") return out;
      const map = imports as Record<string, unknown>;
      if (map[spec] === undefined && Object.keys(map).some((k) => k.includes("*"))) {
        out.dynamic.push(`imports ${spec} through a pattern in package.json's "imports"`);
      }
      for (const target of strings(map[spec])) {
        if (target.startsWith("./")) out.files.push(...jsResolve(at, target));
        else if (!target.startsWith("/") && !target.includes(":")) {
          const parts = target.split("/");
          out.packages.push(
            target.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] as string),
          );
        }
      }
      return out;
    }
    const rel = relative(projectDir, at);
    if (rel === "" || rel.startsWith("..") || rel.split(sep)[0] === "..") return out;
  }
}

/** Every string in a mapping value (a target, or a conditions object / array of them). */
function strings(v: unknown, depth = 0): string[] {
  if (typeof v === "string") return [v];
  if (depth > 6 || v === null || typeof v !== "object") return [];
  return Object.values(v as Record<string, unknown>).flatMap((x) => strings(x, depth + 1));
}
