/**
 * A shell command run in a folder of the project, as the same command would read from the
 * project: what the Bash permission rules (agent/permissions/rules.ts) and hooks' `if`
 * conditions (match.ts), written from the project (`Bash(rm ./x)`,
 * `Bash(./scripts/deploy.sh)`), must judge once the shell keeps its directory between calls
 * (agent/pipeline/shell-cwd.ts). Without it, `cd sub` and then `rm ../x` or `./deploy.sh` would
 * get past a rule naming `x` or `scripts/deploy.sh`, and an allow rule for `./scripts/test.sh`
 * would run `vendor/x/scripts/test.sh`.
 *
 * Words are the normalized command's (normalize.ts joins them with spaces): a word
 * holding a space reads as two, which only adds spellings to test (deny) or makes an allow rule
 * miss (the call then asks).
 */
import { isAbsolute, relative, resolve, sep } from "node:path";

/** The shell's folder relative to the project (`sub/dir`), or null at the project itself. */
export function shellFolder(c: { projectDir: string; cwd?: string }): string | null {
  if (c.cwd === undefined) return null;
  const rel = relative(resolve(c.projectDir), resolve(c.cwd));
  return rel === "" ? null : rel;
}

/**
 * `command` (normalized, run in `folder`) with its words read from the project, in two
 * spellings (`x` and `./x`). `which`: "paths" re-reads only words that can only be paths
 * (holding a `/`, or `.`/`..`); "all" also every other argument that is not an option — a
 * deny rule's extra reading (`rm x` in `sub` is also `rm sub/x`), never an allow's, which
 * would then miss `npm run build`.
 */
export function fromProject(command: string, folder: string, which: "paths" | "all"): string[] {
  const words = command.split(" ");
  const plain: string[] = [];
  const dotted: string[] = [];
  let changed = false;
  words.forEach((w, i) => {
    const path = w.includes("/") || w === "." || w === "..";
    const arg = i > 0 && w !== "" && !w.startsWith("-") && !w.includes("=");
    if (isAbsolute(w) || !(path || (which === "all" && arg))) {
      plain.push(w);
      dotted.push(w);
      return;
    }
    const rel = relative("/p", resolve("/p", folder, w))
      .split(sep)
      .join("/");
    const named = rel === "" ? "." : rel;
    plain.push(named);
    dotted.push(named.startsWith("..") || named === "." ? named : `./${named}`);
    changed = true;
  });
  if (!changed) return [command];
  return [...new Set([plain.join(" "), dotted.join(" ")])];
}
