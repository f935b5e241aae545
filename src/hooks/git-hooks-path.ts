/**
 * git's core.hooksPath as the project's own `.git/config` sets it (`git config core.hooksPath
 * .husky`): the folder whose hooks git runs on commit, checkout, merge, push… — as it does
 * `.git/hooks`, which protected-paths.ts already protects with the rest of `.git/`. Read from
 * the file with a line reader of the `[core]` section (values with quotes or escapes taken as
 * written after quote removal); only a folder inside the project is returned.
 */
import { join, resolve } from "node:path";
import { isInsideOrAt } from "../base/index.js";
import { iniSection, readConfig } from "./runner-config.js";

/** The folder core.hooksPath names inside the project, or null. */
export function gitHooksPath(projectDir: string): string | null {
  const text = readConfig(join(projectDir, ".git", "config"));
  if (text === null || text === "too-large") return null;
  // git's keys are case-insensitive: `[core]` and `hooksPath` in any case.
  const core = iniSection(
    text.replace(/^[ \t]+/gm, "").replace(/^\[\s*core\s*\]/gim, "[core]"),
    "core",
  );
  if (core === null) return null;
  const key = Object.keys(core).find((k) => k.toLowerCase() === "hookspath");
  if (key === undefined) return null;
  const value = (core[key] as string).replace(/^"(.*)"$/, "$1").trim();
  if (value === "") return null;
  // A relative hooksPath counts from the top of the working tree (where hooks run).
  const dir = resolve(projectDir, value.replace(/^~(?=\/)/, "/nonexistent-home"));
  return isInsideOrAt(projectDir, dir) ? dir : null;
}
