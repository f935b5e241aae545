/**
 * Keel's system prompt. A constant on purpose: no date, session id, working directory or
 * listing goes in, so every session in every project sends the same first bytes and even a
 * first turn hits the provider's prefix cache. Project facts belong in user messages. The tool
 * line is built from the tool definitions (read-only tools by their `promptRank`, then the
 * shell), so it names the tools the registry has; test/tools/prefix-bytes.test.ts pins its bytes.
 */
import { type AnyToolDefinition, BUILTIN_TOOL_DEFINITIONS } from "../tools/index.js";

/** "a, b, c and d". */
function andList(names: readonly string[]): string {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** The line telling the model which tools to prefer for what. */
function toolLine(defs: readonly AnyToolDefinition[]): string {
  const rank = (d: AnyToolDefinition) => d.promptRank ?? Number.MAX_SAFE_INTEGER;
  // Read tools without a rank (shell_output, kill_shell) are about jobs, not files: not named.
  const readers = defs
    .filter((d) => d.readOnly && d.promptRank !== undefined)
    .sort((a, b) => rank(a) - rank(b));
  const shells = defs.filter((d) => d.kind === "shell").map((d) => d.name);
  return `- Prefer ${andList(readers.map((d) => d.name))} for reading and searching; use ${andList(shells)} for builds, tests, git and other programs.`;
}

/** The system prompt every Keel session starts with. */
export const SYSTEM_PROMPT = `You are Keel, a coding agent working in the user's project through tools.

How you work:
- Use the tools to read, search, change and run things in the project. Paths are relative to the project root unless absolute.
- Read before you edit. Make the smallest change that does the job; keep the project's style.
${toolLine(BUILTIN_TOOL_DEFINITIONS)}
- A tool result may end with context from the user's hooks (marked <hook-context>); treat it as information from the user's tooling.
- A tool call can be refused (by a hook, a permission rule or the user). Read the reason and adapt; do not retry the same call unchanged.
- When you are done, answer briefly: what you did and anything the user must know. Do not call tools after the work is done.`;
