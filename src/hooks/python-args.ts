/**
 * How Python reads its own options before the script or module (`python3 -q -m pytest`,
 * `python3 -X dev -m mod`, `python3 -Bu tools/x.py`, `python3 -Im pytest`): the words the trust
 * readers (discovery-runners.ts, program-words.ts, word-reach.ts) take as the module or script
 * must be the ones Python takes, or an option in front would hide the runner.
 */
import { basename } from "node:path";

/** Whether a word runs a Python interpreter (`python`, `python3`, `/usr/bin/python3.12`). */
export const isPython = (w: string): boolean => /^python(\d(\.\d+)?)?$/.test(basename(w));

/** Options that take the next word as their value (`-X dev`, `-W error`). */
const VALUED_SHORT = new Set(["X", "W"]);
const VALUED_LONG = new Set(["--check-hash-based-pycs"]);

/** What follows Python's options: a module (`-m`), inline code (`-c`), a script, or stdin. */
export interface PythonOperand {
  kind: "module" | "code" | "script" | "stdin";
  /** The module, code or script (undefined when the line ends first). */
  value: string | undefined;
  /** Index in the words of the value (of `-mNAME` itself when attached). */
  index: number;
}

/** The operand of the Python command starting at `at` (its program word), or null. */
export function pythonOperand(words: readonly string[], at: number): PythonOperand | null {
  if (!isPython(words[at] ?? "")) return null;
  for (let j = at + 1; j < words.length; j++) {
    const w = words[j] as string;
    if (/^[;&|]+$/.test(w)) return null;
    if (w === "--") return { kind: "script", value: words[j + 1], index: j + 1 };
    if (w === "-") return { kind: "stdin", value: undefined, index: j };
    if (w.startsWith("--")) {
      if (VALUED_LONG.has(w)) j++;
      continue;
    }
    if (!w.startsWith("-")) return { kind: "script", value: w, index: j };
    // A cluster of short options (`-Bu`, `-OO`); `-m`/`-c` end it and take the rest or the next
    // word; `-X`/`-W` take the rest or the next word.
    for (let k = 1; k < w.length; k++) {
      const c = w[k] as string;
      if (c === "m" || c === "c") {
        const kind = c === "m" ? "module" : "code";
        const rest = w.slice(k + 1);
        return rest !== ""
          ? { kind, value: rest, index: j }
          : { kind, value: words[j + 1], index: j + 1 };
      }
      if (VALUED_SHORT.has(c)) {
        if (k + 1 === w.length) j++;
        break;
      }
    }
  }
  return null;
}

/** The module `python … -m NAME` runs, with its index, or null. */
export function pythonModule(
  words: readonly string[],
  at: number,
): { name: string; index: number } | null {
  const op = pythonOperand(words, at);
  if (op?.kind !== "module" || op.value === undefined || !/^[\w.]+$/.test(op.value)) return null;
  return { name: op.value, index: op.index };
}
