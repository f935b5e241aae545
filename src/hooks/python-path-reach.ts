/**
 * The folder Python puts first on `sys.path` for what a hook runs (attack6/13): the script's
 * own folder for `python3 hooks/check.py` (or `./hooks/check.py` with a python `#!` line), the
 * working folder for `python -c CODE` and `python - < x.py`. Any module written there loads in
 * front of the standard library's — not only the ones the script imports by name
 * (source-imports.ts pins those), but every one the standard library imports in turn
 * (`import subprocess` loads `selectors`, `signal`, `threading`…). That set is open-ended, so the
 * folder's top-level modules and packages are treated like a discovering runner's patterns
 * (discovery-runners.ts): what matches now is pinned, a new one is a protected path. `python -m`
 * is the `python-m` runner there already.
 */
import { basename, dirname, resolve } from "node:path";
import { isDirectory, isInsideOrAt, isRegularFile } from "../base/index.js";
import type { DiscoveryReach } from "./discovery-runners.js";
import { isPython, pythonOperand } from "./python-args.js";
import { readShebang } from "./shebang.js";

/** What a folder first on sys.path shadows: a module (source, sourceless or compiled) or a
 *  package, by any name. */
export const SYS_PATH_TOP = ["*.py", "*.pyc", "*.so", "*/__init__.py"] as const;

/** Whether a project file is a Python script by its `#!` line (`#!/usr/bin/env python3`). */
function pythonShebang(path: string): boolean {
  const s = readShebang(path);
  if (s === null) return false;
  return isPython(s.program ?? s.interpreter) || isPython(basename(s.interpreter));
}

/**
 * The sys.path[0] folders of the Python runs among `words` (a hook's words, or a script's),
 * resolved from `dirs` (and the project: a hook's scripts run there), inside the project.
 */
export function pythonPathReach(
  words: readonly string[],
  dirs: readonly string[],
  projectDir: string,
): DiscoveryReach[] {
  const out = new Map<string, DiscoveryReach>();
  const add = (root: string, what: string) => {
    if (isInsideOrAt(projectDir, root) && !out.has(root)) {
      out.set(root, { root, patterns: [...SYS_PATH_TOP], what });
    }
  };
  const from = [...new Set([...dirs, projectDir])];
  const script = (word: string, how: string) => {
    const tries = from.map((d) => resolve(d, word)).filter((p) => isInsideOrAt(projectDir, p));
    // The script as found; when it is not there yet, where the first folder would find it.
    const found = tries.filter(isRegularFile);
    for (const abs of found.length > 0 ? found : tries.slice(0, 1)) {
      if (isDirectory(dirname(abs))) {
        add(
          dirname(abs),
          `${how} puts its folder first on sys.path: a *.py or package written there shadows any module it imports, the standard library's included`,
        );
      }
    }
  };
  words.forEach((word, i) => {
    if (isPython(word)) {
      const op = pythonOperand(words, i);
      if (op?.kind === "script" && op.value !== undefined) script(op.value, `python ${op.value}`);
      else if (op?.kind === "code" || op?.kind === "stdin") {
        for (const d of dirs) {
          add(
            d,
            `python ${op.kind === "code" ? "-c" : "-"} puts the folder it runs in first on sys.path: a *.py or package written there shadows any module it imports`,
          );
        }
      }
      return;
    }
    // A script run by its `#!` line (`./hooks/check.py`): only words naming a file there now.
    if (word.includes("/") || word.endsWith(".py")) {
      for (const d of from) {
        const abs = resolve(d, word);
        if (isInsideOrAt(projectDir, abs) && isRegularFile(abs) && pythonShebang(abs)) {
          script(word, word);
          break;
        }
      }
    }
  });
  return [...out.values()];
}
