/**
 * Expanding a custom command into a prompt, as Claude Code does: `$ARGUMENTS` (all arguments),
 * `$1`, `$2`… (positional, quotes group words), `!`cmd`` (replaced by the command's output — only
 * after approval, and the arguments are never substituted into it: text a user or model typed
 * never becomes part of a command line), and `@path` (the project file's contents attached).
 * The TUI and `keel run` both reach this through the agent.
 */
import { readFileSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import type { ReadBarTest } from "../pipeline/index.js";
import type { CustomCommand } from "./load.js";

/** Runs one `!`cmd`` after asking; `refused` says why it did not run. */
export type ShellRunner = (
  command: string,
) => Promise<{ ok: true; output: string } | { ok: false; refused: string }>;

/** The expanded prompt, or why the command could not be expanded. */
export type Expansion = { ok: true; prompt: string } | { ok: false; error: string };

const MAX_ATTACHED_BYTES = 256 * 1024;

/** Splits an argument string like a shell would for words: quotes group, no expansion. */
export function splitArguments(args: string): string[] {
  const out: string[] = [];
  for (const m of args.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3] ?? "");
  return out;
}

/** Expands `command` with `args`. Never throws. */
export async function expandCommand(
  command: CustomCommand,
  args: string,
  ctx: { projectDir: string; runShell: ShellRunner; readBarred?: ReadBarTest },
): Promise<Expansion> {
  // Shell first, on the template itself: arguments never reach a command line.
  let body = command.body;
  const shells = [...body.matchAll(/!`([^`\n]+)`/g)];
  for (const m of shells) {
    const cmd = m[1] ?? "";
    const r = await ctx.runShell(cmd);
    if (!r.ok) {
      return {
        ok: false,
        error: `/${command.name} (${command.path}) runs \`${cmd}\` to build its prompt, and it was not run: ${r.refused}`,
      };
    }
    body = body.replace(m[0], () => r.output.trimEnd());
  }
  const positional = splitArguments(args);
  const usesArgs = /\$ARGUMENTS|\$\d/.test(command.body);
  let prompt = body
    .replace(/\$ARGUMENTS/g, () => args)
    .replace(/\$(\d+)/g, (_m, n: string) => positional[Number(n) - 1] ?? "");
  if (!usesArgs && args.trim() !== "") prompt = `${prompt.trimEnd()}\n\nARGUMENTS: ${args}`;
  const attached = attachFiles(prompt, ctx.projectDir, ctx.readBarred);
  return {
    ok: true,
    prompt: attached.length > 0 ? `${prompt.trimEnd()}\n\n${attached.join("\n\n")}` : prompt.trim(),
  };
}

/** The `@path` mentions of project files, as blocks holding their contents. */
function attachFiles(text: string, projectDir: string, readBarred?: ReadBarTest): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const root = realOr(projectDir);
  const withoutCode = text.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  for (const m of withoutCode.matchAll(/(^|\s)@((?:\.{1,2}\/)?[\w./-]+)/g)) {
    const rel = (m[2] ?? "").replace(/[.,;:]+$/, "");
    if (rel === "" || seen.has(rel)) continue;
    seen.add(rel);
    const abs = resolve(root, rel);
    let real: string;
    try {
      real = realpathSync(abs);
      const st = statSync(real);
      if (!st.isFile() || st.size > MAX_ATTACHED_BYTES) continue;
    } catch {
      continue;
    }
    const inside = relative(root, real);
    // Only the project's own files: a command must not pull anything else into a request.
    if (inside.startsWith("..") || isAbsolute(inside)) continue;
    // A Read deny/ask rule (and KEEL_HOME) holds for attachments as for read_file.
    if (readBarred?.(real)) continue;
    const content = readFileSync(real, "utf8");
    if (content.includes("\u0000")) continue;
    out.push(`<file path="${inside}">\n${content.trimEnd()}\n</file>`);
  }
  return out;
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
