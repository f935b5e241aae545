/**
 * A custom command's `allowed-tools` (Claude Code's frontmatter): tools that run without asking
 * while the command's turn runs. `Bash(git add:*)` allows shell commands starting with
 * `git add`; `Read` allows every read_file call. Only a user's own commands grant this: a
 * project file (a cloned repository's `.claude/commands`) never approves anything by itself.
 */
import { wildcardMatcher } from "../../base/index.js";
import { keelToolNameFromAny } from "../../hooks/index.js";

/** Decides whether a call is pre-approved for the turn. */
export type TurnAllowance = (toolName: string, primary: string | undefined) => boolean;

interface Rule {
  tool: string;
  /** Tests the call's primary argument; null allows every call of the tool. */
  test: ((primary: string) => boolean) | null;
}

/** The allowance for a list like `["Bash(git add:*)", "Read"]`. */
export function allowanceFrom(entries: readonly string[]): TurnAllowance {
  const rules = entries.flatMap((entry): Rule[] => {
    const m = /^\s*([A-Za-z0-9_:-]+)\s*(?:\((.*)\))?\s*$/.exec(entry);
    if (!m?.[1]) return [];
    const tool = keelToolNameFromAny(m[1]);
    const pattern = m[2]?.trim();
    if (pattern === undefined || pattern === "" || pattern === "*") return [{ tool, test: null }];
    // Only shell patterns are understood (a command prefix or a glob); others grant nothing.
    if (tool !== "shell") return [];
    const prefix = pattern.endsWith(":*") ? pattern.slice(0, -2) : null;
    // Not a RegExp: the command is the model's, and `.*` backtracks (src/base/wildcard.ts).
    const glob = prefix === null ? wildcardMatcher(pattern) : null;
    return [
      {
        tool,
        test: (cmd: string) =>
          prefix !== null ? cmd === prefix || cmd.startsWith(`${prefix} `) : (glob?.(cmd) ?? false),
      },
    ];
  });
  return (toolName, primary) =>
    rules.some(
      (r) =>
        r.tool === toolName &&
        (r.test === null ||
          (primary !== undefined && !/[;&|`$<>\n\r\u2028\u2029]/.test(primary) && r.test(primary))),
    );
}
