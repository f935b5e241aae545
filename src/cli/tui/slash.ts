/**
 * The slash-command catalogue and its completion, as pure data and functions. What each command
 * does lives in commands.ts; this file only knows names, arguments and help text.
 */

import { customCommandSpecs, SESSION_COMMANDS } from "./session-commands.js";

/** One slash command as the menu and /help show it. */
export interface SlashCommandSpec {
  name: string;
  description: string;
  /** Argument synopsis for /help, e.g. "[list|reload|trust|stats]". */
  usage?: string;
  /** Fixed argument choices offered by completion. */
  args?: readonly string[];
  /** Whether the command runs without an argument (Enter on the menu submits it at once). */
  argsOptional?: boolean;
}

/** Every slash command, in the order /help lists them. */
export const SLASH_COMMANDS: readonly SlashCommandSpec[] = [
  { name: "help", description: "commands and keys", argsOptional: true },
  {
    name: "hooks",
    description: "list hooks, reload them, trust project hooks, per-hook stats",
    usage: "[list|reload|trust|untrust|stats]",
    args: ["list", "reload", "trust", "untrust", "stats"],
    argsOptional: true,
  },
  {
    name: "mcp",
    description: "MCP servers and their tools; reload them, trust project servers",
    usage: "[list|reload|trust]",
    args: ["list", "reload", "trust"],
    argsOptional: true,
  },
  {
    name: "stats",
    description: "this session's tokens, cache hit ratio and cost",
    argsOptional: true,
  },
  { name: "model", description: "show or switch the model", usage: "[name]", argsOptional: true },
  {
    name: "effort",
    description: "show or set the reasoning effort (none … max, or off)",
    usage: "[level|off]",
    argsOptional: true,
  },
  {
    name: "mode",
    description: "show or switch the permission mode",
    usage: "[default|acceptEdits|plan|bypassPermissions]",
    args: ["default", "acceptEdits", "plan", "bypassPermissions"],
    argsOptional: true,
  },
  {
    name: "compact",
    description: "summarize the conversation to free context",
    argsOptional: true,
  },
  {
    name: "clear",
    description: "start a new session (SessionEnd, then SessionStart)",
    argsOptional: true,
  },
  { name: "sessions", description: "recent sessions of this project", argsOptional: true },
  {
    name: "resume",
    description: "resume a session (no id: pick one of this project's)",
    usage: "[id]",
    argsOptional: true,
  },
  {
    name: "rewind",
    description: "go back to before a user turn: files, conversation or both (no N: list turns)",
    usage: "[N] [files|conversation|both]",
    argsOptional: true,
  },
  { name: "thinking", description: "show the last turn's reasoning in full", argsOptional: true },
  {
    name: "jobs",
    description: "background shell jobs; /jobs kill ID ends one",
    usage: "[kill ID]",
    argsOptional: true,
  },
  ...SESSION_COMMANDS,
  { name: "exit", description: "end the session and quit", argsOptional: true },
];

/** A parsed `/name args…` line. */
export interface SlashInvocation {
  name: string;
  args: string[];
}

/** Parses a prompt as a slash command, or null when it is ordinary text. */
export function parseSlash(text: string): SlashInvocation | null {
  const trimmed = text.trim();
  if (!/^\/[A-Za-z]/.test(trimmed)) return null;
  const [head = "", ...args] = trimmed.slice(1).split(/\s+/);
  return { name: head.toLowerCase(), args };
}

/** One completion candidate: the buffer text it produces and what the menu shows. */
export interface Completion {
  /** The whole prompt text after accepting this candidate. */
  value: string;
  label: string;
  description: string;
  /** Whether accepting it with Enter should run it at once. */
  runnable: boolean;
}

/** An argument choice with a line that says what it is (a session's date and first prompt). */
export interface ArgChoice {
  value: string;
  description: string;
}

/** Extra argument choices known only at runtime (model names, session ids). */
export type DynamicArgs = Readonly<Record<string, readonly (string | ArgChoice)[]>>;

/** The candidates for what is typed so far; empty when the menu should not show. */
export function completeSlash(
  text: string,
  opts: { commands?: readonly SlashCommandSpec[]; dynamic?: DynamicArgs } = {},
): Completion[] {
  const commands = opts.commands ?? [...SLASH_COMMANDS, ...customCommandSpecs()];
  if (!text.startsWith("/") || text.includes("\n")) return [];
  const space = text.indexOf(" ");
  if (space < 0) {
    const typed = text.slice(1).toLowerCase();
    // A whole command name wins over longer ones it begins ("/mode" runs /mode, not /model).
    const exact = commands.filter((c) => c.name === typed);
    const prefix = commands.filter((c) => c.name !== typed && c.name.startsWith(typed));
    const inner = commands.filter((c) => !c.name.startsWith(typed) && c.name.includes(typed));
    return [...exact, ...prefix, ...inner].map((c) => ({
      value: c.argsOptional === false || (c.args && !c.argsOptional) ? `/${c.name} ` : `/${c.name}`,
      label: `/${c.name}${c.usage ? ` ${c.usage}` : ""}`,
      description: c.description,
      runnable: c.argsOptional !== false,
    }));
  }
  const name = text.slice(1, space).toLowerCase();
  const rest = text.slice(space + 1);
  if (rest.includes(" ")) return [];
  const spec = commands.find((c) => c.name === name);
  if (!spec) return [];
  const choices = [...(spec.args ?? []), ...(opts.dynamic?.[name] ?? [])].map((a) =>
    typeof a === "string" ? { value: a, description: "" } : a,
  );
  return choices
    .filter((a) => a.value.toLowerCase().startsWith(rest.toLowerCase()) && a.value !== rest)
    .map((a) => ({
      value: `/${name} ${a.value}`,
      label: a.value,
      description: a.description,
      runnable: true,
    }));
}
