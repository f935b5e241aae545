/**
 * Auto-approval: whether a shell command line runs without asking a person. The line is parsed
 * by a real shell parser (src/hooks/shell); it is approved only when the parser sees all of it
 * — simple commands joined by `;`, `&&`, `||`, `|`, groups and subshells, literal words — and
 * every command passes its rule in rules.ts. Anything else needs a person.
 */
import { analyzeShell } from "../../../hooks/index.js";
import { RULES, type RuleContext } from "./rules.js";

/** The decision, with the reason a person is needed. */
export type AutoApproval = { approved: true } | { approved: false; reason: string };

/**
 * Decides whether `command` may run without asking (it then runs in the OS sandbox). `ctx`
 * says what else holds: with Read deny or ask rules, commands that print git's stored copies
 * of files need a person (rules.ts).
 */
export function autoApprove(command: string, ctx: RuleContext = {}): AutoApproval {
  const analysis = analyzeShell(command);
  if (!analysis.parsed) return no(`the shell parser rejects it (${analysis.error})`);
  const [opaque] = analysis.opaque;
  if (opaque !== undefined) return no(`it uses ${opaque}, which hides what runs`);
  if (analysis.commands.length === 0) return no("it runs no command");
  for (const { argv, literal, assigns } of analysis.commands) {
    if (assigns.length > 0) return no(`it sets ${assigns[0]} for the command`);
    const [name, ...args] = argv;
    if (name === undefined) return no("it runs no command");
    if (!literal[0] || name.includes("/"))
      return no(`the command name ${name} is not a plain name`);
    const rule = RULES.get(name);
    if (!rule) return no(`${name} is not on the read-only allowlist`);
    if (!rule.globs && literal.some((l) => !l)) {
      return no(`${name} with an unquoted glob or ~ (a file name could become an option)`);
    }
    const why = rule.check?.(args, ctx);
    if (why !== undefined) return no(why);
  }
  return { approved: true };
}

function no(reason: string): AutoApproval {
  return { approved: false, reason };
}
