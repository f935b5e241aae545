/** Which files Read deny/ask rules keep from the read tools and the shell (sandboxed). */
import type { PipelineContext } from "./types.js";

/**
 * For a read tool or the shell, the test of files that a deny or ask rule keeps from read_file
 * (grep over a directory skips them; a sandboxed command finds them empty), or undefined when no
 * rule could.
 */
export function readBarredBy(
  ctx: PipelineContext,
  kind: string,
): ((abs: string) => boolean) | undefined {
  const rules = ctx.rules;
  if ((kind !== "read" && kind !== "shell") || rules === undefined) return undefined;
  // Only Read rules bar reading: a Bash deny rule must not make every sandboxed command
  // search the project.
  const barring = rules.rules.filter(
    (r) => r.kind !== "allow" && (kind === "read" || /^Read(\(|$)/.test(r.text)),
  );
  if (barring.length === 0) return undefined;
  const projectDir = ctx.info.projectDir;
  return (abs) =>
    barring.some((r) =>
      r.test({ toolName: "read_file", input: { path: abs }, projectDir, homeDir: rules.homeDir }),
    );
}
